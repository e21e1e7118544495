import { type FormEvent, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { checkEmail, checkRequired, firstIssue } from '@kupa/proto';
import { authApi } from '../../../lib/api/endpoints';
import { useT } from '../../../lib/i18n/i18n';
import { inputTestId } from '../../../lib/ui/test-ids';

/** Asks for a new confirmation link; like the reset form, it never reveals whether the address is known. */
export function ResendConfirmationForm() {
  const { t, lang, issueMessage } = useT();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const resend = useMutation({ mutationFn: authApi.resendConfirmation });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = issueMessage(firstIssue(email.trim(), checkRequired, checkEmail));
    setError(problem);
    if (!problem) resend.mutate({ email: email.trim(), language: lang });
  };

  if (resend.isSuccess) {
    return (
      <Alert severity="success" data-testid="resend-sent">
        {t('confirm.resend.sent')}
      </Alert>
    );
  }
  return (
    <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label={t('confirm.resend.submit')}>
      <Typography color="text.secondary">{t('confirm.resend.intro')}</Typography>
      <TextField
        label={t('form.email')}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setError(undefined);
        }}
        error={Boolean(error)}
        helperText={error}
        required
        fullWidth
        slotProps={{ htmlInput: { ...inputTestId('resend-email'), dir: 'ltr' } }}
      />
      <Button type="submit" variant="contained" disabled={resend.isPending} data-testid="resend-submit">
        {resend.isPending ? t('form.sending') : t('confirm.resend.submit')}
      </Button>
    </Stack>
  );
}
