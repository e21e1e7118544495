import {
  type Subscription,
  subscriptionShownState,
  subscriptionStateIntent,
  subscriptionStateLabel,
} from '@kupa/proto';
import { useT } from '../../lib/i18n/i18n';
import { StatusChip } from '../../lib/ui/status-chip';

/**
 * A subscription's state as proto shows it in both apps: its status, except that a cancelled one still running reads
 * as cancelled rather than a plain "Active" (ADR 0076).
 */
export function SubscriptionStatusChip({
  subscription,
  testId,
}: {
  subscription: Pick<Subscription, 'status' | 'cancelAtPeriodEnd'>;
  testId?: string;
}) {
  const { lang } = useT();
  return (
    <StatusChip
      label={subscriptionStateLabel(subscription, lang)}
      value={subscriptionShownState(subscription)}
      intent={subscriptionStateIntent(subscription)}
      testId={testId}
    />
  );
}
