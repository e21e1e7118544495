import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { authApi } from '../../../lib/api/endpoints';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { AuthCard } from '../../../lib/ui/page';
import { RouterButton } from '../../../lib/ui/router-link';
import { ResendConfirmationForm } from './resend-confirmation-form';

const routeApi = getRouteApi('/confirmation-token/$token');

const ALREADY_ACTIVE = 'error.account.already.active';

/**
 * Confirms the account from the e-mailed link: a success screen; for a link opened again once it did its work, the
 * news that the account is already confirmed; otherwise the reason and a way to get a new link.
 */
export function ConfirmAccountPage() {
  const { t, lang } = useT();
  const { token } = routeApi.useParams();
  // A token works once, so the answer is kept for the page's lifetime instead of being asked for again.
  const confirmation = useQuery({
    queryKey: ['confirmation-token', token],
    queryFn: () => authApi.confirmAccount(token),
    staleTime: Infinity,
    gcTime: Infinity,
    meta: { silentError: true },
  });
  const alreadyConfirmed = isApiError(confirmation.error) && confirmation.error.code === ALREADY_ACTIVE;

  return (
    <AuthCard title={t('confirm.title')}>
      {confirmation.isPending && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={24} />
          <Typography>{t('confirm.loading')}</Typography>
        </Stack>
      )}
      {confirmation.isSuccess && (
        <>
          <Alert severity="success" data-testid="confirm-success">
            {t('confirm.success')}
          </Alert>
          <RouterButton to="/login" variant="contained">
            {t('common.toLogin')}
          </RouterButton>
        </>
      )}
      {alreadyConfirmed && (
        <>
          <Alert severity="info" data-testid="confirm-already">
            {t('confirm.already')}
          </Alert>
          <RouterButton to="/login" variant="contained">
            {t('common.toLogin')}
          </RouterButton>
        </>
      )}
      {confirmation.isError && !alreadyConfirmed && (
        <>
          <Alert severity="error" data-testid="confirm-error">
            <AlertTitle>{t('confirm.failed')}</AlertTitle>
            {errorMessageFor(confirmation.error, lang)}
          </Alert>
          <ResendConfirmationForm />
        </>
      )}
    </AuthCard>
  );
}
