import { enumLabel, type SubscriptionStatus, subscriptionStatusIntent } from '@kupa/proto';
import { useT } from '../../lib/i18n/i18n';
import { StatusChip } from '../../lib/ui/status-chip';

/** A subscription's status, coloured by proto's intent for it. */
export function SubscriptionStatusChip({ status, testId }: { status: SubscriptionStatus; testId?: string }) {
  const { lang } = useT();
  return (
    <StatusChip
      label={enumLabel('subscriptionStatus', status, lang)}
      value={status}
      intent={subscriptionStatusIntent(status)}
      testId={testId}
    />
  );
}
