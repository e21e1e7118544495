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
import { AuthCard } from '../../../lib/ui/page';
import { RouterLink } from '../../../lib/ui/router-link';
import { inputTestId } from '../../../lib/ui/test-ids';

/** Requests a reset link. The answer never says whether the address exists, so neither does the screen. */
export function ResetPasswordPage() {
  const { t, lang, issueMessage } = useT();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const forgot = useMutation({ mutationFn: authApi.forgotPassword });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = issueMessage(firstIssue(email.trim(), checkRequired, checkEmail));
    setError(problem);
    if (!problem) forgot.mutate({ email: email.trim(), language: lang });
  };

  return (
    <AuthCard title={t('reset.title')}>
      {forgot.isSuccess ? (
        <Alert severity="success" data-testid="reset-sent">
          {t('reset.sent')}
        </Alert>
      ) : (
        <>
          <Typography color="text.secondary">{t('reset.intro')}</Typography>
          <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label={t('reset.title')}>
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
              slotProps={{ htmlInput: { ...inputTestId('reset-email'), dir: 'ltr' } }}
            />
            <Button type="submit" variant="contained" disabled={forgot.isPending} data-testid="reset-submit">
              {forgot.isPending ? t('form.sending') : t('reset.submit')}
            </Button>
          </Stack>
        </>
      )}
      <RouterLink to="/login" variant="body2">
        {t('reset.backToLogin')}
      </RouterLink>
    </AuthCard>
  );
}
