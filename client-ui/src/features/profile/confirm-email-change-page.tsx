import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { authApi } from '../../lib/api/endpoints';
import { errorMessageFor } from '../../lib/api/api-error';
import { useT } from '../../lib/i18n/i18n';
import { useUserStore } from '../../lib/stores/user-store';
import { AuthCard } from '../../lib/ui/page';
import { RouterButton } from '../../lib/ui/router-link';
import { emailChangeApi } from './email-change-api';
import { EMAIL_CHANGE_TEXT } from './email-change-text';

const routeApi = getRouteApi('/email-change/$token');

/**
 * The link mailed to a new address (docs/adr/0100-change-of-e-mail.md), opened signed in or not: confirms the change,
 * then, since the change ended every session, signs this browser out too and sends the person to sign in with the
 * new address. A used, expired or retired link, or an address taken meanwhile, is said as the API says it.
 */
export function ConfirmEmailChangePage() {
  const { t, lang } = useT();
  const text = EMAIL_CHANGE_TEXT[lang];
  const { token } = routeApi.useParams();
  // A token works once, so the answer is kept for the page's lifetime instead of being asked for again.
  const confirmation = useQuery({
    queryKey: ['email-change-token', token],
    queryFn: async () => {
      const answer = await emailChangeApi.confirm(token);
      // The server already ended this browser's session; the local sign-out only forgets it.
      if (useUserStore.getState().accessToken !== null) {
        await authApi.logout().catch(() => undefined);
        useUserStore.getState().clear();
      }
      return answer;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    meta: { silentError: true },
  });

  return (
    <AuthCard title={text.pageTitle}>
      {confirmation.isPending && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={24} />
          <Typography>{text.confirming}</Typography>
        </Stack>
      )}
      {confirmation.isSuccess && (
        <>
          <Alert severity="success" data-testid="email-change-success">
            {text.confirmed(`\u2066${confirmation.data.email}\u2069`)}
          </Alert>
          <RouterButton to="/login" variant="contained">
            {t('common.toLogin')}
          </RouterButton>
        </>
      )}
      {confirmation.isError && (
        <Alert severity="error" data-testid="email-change-error">
          <AlertTitle>{text.failed}</AlertTitle>
          {errorMessageFor(confirmation.error, lang)}
        </Alert>
      )}
    </AuthCard>
  );
}
