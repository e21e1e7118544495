import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';

/** The client's subscriptions; the list, buying and renewing arrive with the subscriptions issue. */
export function SubscriptionsPage() {
  const { t } = useT();
  return (
    <Page title={t('subscriptions.title')}>
      <EmptyState message={t('subscriptions.empty')} />
    </Page>
  );
}
