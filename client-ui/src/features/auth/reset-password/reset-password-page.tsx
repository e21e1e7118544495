import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { authApi } from '../../../lib/api/endpoints';
import { useT } from '../../../lib/i18n/i18n';
import { AuthCard } from '../../../lib/ui/page';
import { RouterLink } from '../../../lib/ui/router-link';
import { EmailRequestInputs, useEmailRequest } from '../email-request-form';

/** Requests a reset link. The answer never says whether the address exists, so neither does the screen. */
export function ResetPasswordPage() {
  const { t } = useT();
  const forgot = useEmailRequest(authApi.forgotPassword);

  return (
    <AuthCard title={t('reset.title')}>
      {forgot.isSuccess ? (
        <Alert severity="success" data-testid="reset-sent">
          {t('reset.sent')}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary">{t('reset.intro')}</Typography>
          <Stack component="form" spacing={2} noValidate onSubmit={forgot.submit} aria-label={t('reset.title')}>
            <EmailRequestInputs request={forgot} testIdPrefix="reset" submitLabel={t('reset.submit')} />
          </Stack>
        </>
      )}
      <RouterLink to="/login" variant="body2">
        {t('reset.backToLogin')}
      </RouterLink>
    </AuthCard>
  );
}
