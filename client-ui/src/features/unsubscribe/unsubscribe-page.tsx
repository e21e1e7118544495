import { getRouteApi } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { formatClientErrorMessage } from '@kupa/proto';
import { notificationsApi } from '../../lib/api/endpoints';
import { errorMessageFor } from '../../lib/api/api-error';
import { useT } from '../../lib/i18n/i18n';
import { AuthCard } from '../../lib/ui/page';

const routeApi = getRouteApi('/unsubscribe');

/**
 * An announcement mail's visible unsubscribe link (docs/adr/0091-broadcasts.md): no sign-in. It says what the button
 * does before it is pressed, since a mail scanner that opens links must not unsubscribe anyone; a link without a
 * token says so at once, a forged one when the API refuses it.
 */
export function UnsubscribePage() {
  const { t, lang } = useT();
  const { token } = routeApi.useSearch();
  const unsubscribe = useMutation({
    mutationFn: (value: string) => notificationsApi.unsubscribe(value),
    meta: { silentError: true },
  });

  return (
    <AuthCard title={t('unsubscribe.title')}>
      {token === undefined ? (
        <Alert severity="error" data-testid="unsubscribe-error">
          {formatClientErrorMessage('error.unsubscribe.link.invalid', lang)}
        </Alert>
      ) : unsubscribe.isSuccess ? (
        <Alert severity="success" data-testid="unsubscribe-done" role="status">
          {t('unsubscribe.done')}
        </Alert>
      ) : (
        <>
          <Typography data-testid="unsubscribe-intro">{t('unsubscribe.intro')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('profile.announcementsHint')}
          </Typography>
          {unsubscribe.isError && (
            <Alert severity="error" data-testid="unsubscribe-error">
              {errorMessageFor(unsubscribe.error, lang)}
            </Alert>
          )}
          <Button
            variant="contained"
            disabled={unsubscribe.isPending}
            onClick={() => unsubscribe.mutate(token)}
            data-testid="unsubscribe-submit"
          >
            {unsubscribe.isPending ? t('form.sending') : t('unsubscribe.submit')}
          </Button>
        </>
      )}
    </AuthCard>
  );
}
