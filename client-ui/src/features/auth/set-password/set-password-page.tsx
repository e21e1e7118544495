import { type FormEvent, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { checkPassword, checkPasswordConfirmation, checkRequired, firstIssue } from '@kupa/proto';
import { authApi } from '../../../lib/api/endpoints';
import { useT } from '../../../lib/i18n/i18n';
import { AuthCard } from '../../../lib/ui/page';
import { PasswordField } from '../../../lib/ui/password-field';
import { RouterLink } from '../../../lib/ui/router-link';
import { inputTestId } from '../../../lib/ui/test-ids';

const routeApi = getRouteApi('/set-password/$token');

/** Sets a new password from the e-mailed reset link. */
export function SetPasswordPage() {
  const { t, issueMessage } = useT();
  const { token } = routeApi.useParams();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirmPassword?: string }>({});
  const reset = useMutation({ mutationFn: authApi.resetPassword });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: issueMessage(firstIssue(password, checkRequired, checkPassword)),
      confirmPassword: issueMessage(
        checkRequired(confirmPassword) ?? checkPasswordConfirmation(password, confirmPassword),
      ),
    };
    setErrors(next);
    if (!next.password && !next.confirmPassword) reset.mutate({ token, password, confirmPassword });
  };

  return (
    <AuthCard title={t('setPassword.title')}>
      {reset.isSuccess ? (
        <Alert severity="success" data-testid="set-password-done">
          {t('setPassword.done')}
        </Alert>
      ) : (
        <Stack component="form" spacing={2} noValidate onSubmit={submit} aria-label={t('setPassword.title')}>
          <PasswordField
            label={t('form.password')}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={Boolean(errors.password)}
            helperText={errors.password}
            required
            fullWidth
            slotProps={{ htmlInput: inputTestId('set-password-password') }}
          />
          <PasswordField
            label={t('form.confirmPassword')}
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.target.value)}
            error={Boolean(errors.confirmPassword)}
            helperText={errors.confirmPassword}
            required
            fullWidth
            slotProps={{ htmlInput: inputTestId('set-password-confirm') }}
          />
          <Button type="submit" variant="contained" disabled={reset.isPending} data-testid="set-password-submit">
            {reset.isPending ? t('form.sending') : t('setPassword.submit')}
          </Button>
        </Stack>
      )}
      <RouterLink to="/login" variant="body2">
        {t('common.toLogin')}
      </RouterLink>
    </AuthCard>
  );
}
