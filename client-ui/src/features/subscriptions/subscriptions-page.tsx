import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';
import { RouterButton } from '../../lib/ui/router-link';

/** The client's subscriptions; the list, buying and renewing arrive with the subscriptions issue. */
export function SubscriptionsPage() {
  const { t } = useT();
  return (
    <Page title={t('subscriptions.title')}>
      <EmptyState
        message={t('subscriptions.empty')}
        action={
          <RouterButton to="/packages" variant="contained" data-testid="subscriptions-to-packages">
            {t('subscriptions.toPackages')}
          </RouterButton>
        }
      />
    </Page>
  );
}
