import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useT } from '../../../lib/i18n/i18n';
import { AuthCard } from '../../../lib/ui/page';
import { RouterLink } from '../../../lib/ui/router-link';
import { SUPPORT_EMAIL, SUPPORT_TELEGRAM_URL } from '../../../app/access';

/** Where a blocked account lands: the API answered 403 `error.account.blocked` and the session was ended. */
export function BlockedPage() {
  const { t, errorMessage } = useT();
  return (
    <AuthCard title={t('blocked.title')}>
      <Alert severity="error" data-testid="blocked-notice">
        {errorMessage('error.account.blocked')}
      </Alert>
      <Typography>{t('blocked.body')}</Typography>
      <Stack direction="row" spacing={2}>
        <Link href={SUPPORT_TELEGRAM_URL} target="_blank" rel="noopener noreferrer">
          {t('help.telegram')}
        </Link>
        <Link href={`mailto:${SUPPORT_EMAIL}`}>
          <bdi>{SUPPORT_EMAIL}</bdi>
        </Link>
      </Stack>
      <RouterLink to="/login" variant="body2">
        {t('common.toLogin')}
      </RouterLink>
    </AuthCard>
  );
}
