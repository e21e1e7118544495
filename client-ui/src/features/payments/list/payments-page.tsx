import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';

/** The client's payments; the list, deposit and transfer forms arrive with the payments issue. */
export function PaymentsPage() {
  const { t } = useT();
  return (
    <Page title={t('payments.title')}>
      <EmptyState message={t('payments.empty')} />
    </Page>
  );
}
