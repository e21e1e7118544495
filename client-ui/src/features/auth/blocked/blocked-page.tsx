import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { hasAnyContact, useSupportContacts } from '../../../lib/api/use-support-contacts';
import { useT } from '../../../lib/i18n/i18n';
import { AuthCard } from '../../../lib/ui/page';
import { RouterLink } from '../../../lib/ui/router-link';
import { SupportLinks } from '../../help/support-links';

/** Where a blocked account lands: the API answered 403 `error.account.blocked` and the session was ended. */
export function BlockedPage() {
  const { t, errorMessage } = useT();
  const { contacts } = useSupportContacts();
  return (
    <AuthCard title={t('blocked.title')}>
      <Alert severity="error" data-testid="blocked-notice">
        {errorMessage('error.account.blocked')}
      </Alert>
      {hasAnyContact(contacts) && <Typography>{t('blocked.body')}</Typography>}
      <SupportLinks contacts={contacts} variant="link" />
      <RouterLink to="/login" variant="body2">
        {t('common.toLogin')}
      </RouterLink>
    </AuthCard>
  );
}
