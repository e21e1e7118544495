import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';

/** The packages on sale; the catalogue arrives with the packages issue. */
export function PackagesPage() {
  const { t } = useT();
  return (
    <Page title={t('packages.title')}>
      <EmptyState message={t('packages.empty')} />
    </Page>
  );
}
