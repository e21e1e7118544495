import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { authApi } from '../../../lib/api/endpoints';
import { useT } from '../../../lib/i18n/i18n';
import { EmailRequestInputs, useEmailRequest } from '../email-request-form';

/** Asks for a new confirmation link; like the reset form, it never reveals whether the address is known. */
export function ResendConfirmationForm() {
  const { t } = useT();
  const resend = useEmailRequest(authApi.resendConfirmation);

  if (resend.isSuccess) {
    return (
      <Alert severity="success" data-testid="resend-sent">
        {t('confirm.resend.sent')}
      </Alert>
    );
  }
  return (
    <Stack component="form" spacing={2} noValidate onSubmit={resend.submit} aria-label={t('confirm.resend.submit')}>
      <Typography color="text.secondary">{t('confirm.resend.intro')}</Typography>
      <EmailRequestInputs request={resend} testIdPrefix="resend" submitLabel={t('confirm.resend.submit')} />
    </Stack>
  );
}
