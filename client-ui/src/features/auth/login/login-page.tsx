import { type FormEvent, lazy, Suspense, useState } from 'react';
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { checkEmail, checkRequired, firstIssue, formatClientErrorMessage, isStaffRole } from '@kupa/proto';
import { authApi } from '../../../lib/api/endpoints';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useUserStore } from '../../../lib/stores/user-store';
import { AuthCard } from '../../../lib/ui/page';
import { PasswordField } from '../../../lib/ui/password-field';
import { RouterLink } from '../../../lib/ui/router-link';
import { safeReturnPath } from '../../../lib/navigation';
import { importWithReload } from '../../../lib/reload-once';
import { inputTestId } from '../../../lib/ui/test-ids';

const routeApi = getRouteApi('/login');

/**
 * Only staff see the notice, and the sign-in page is the first screen: it loads, with its texts, when it is shown
 * (docs/adr/0048-first-screen-in-one-chunk.md).
 */
const StaffNotice = lazy(
  importWithReload(() => import('./staff-notice').then(({ StaffNotice }) => ({ default: StaffNotice }))),
);

// Most sign-ins need no code: the second step arrives only when the server asks for one (ADR 0048, ADR 0098).
const LoginCodeStep = lazy(
  importWithReload(() => import('./login-code-step').then((module) => ({ default: module.LoginCodeStep }))),
);

export function LoginPage() {
  const { t, lang, issueMessage } = useT();
  const { notice, redirect } = routeApi.useSearch();
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const signInStore = useUserStore((state) => state.signIn);
  const endReason = useUserStore((state) => state.endReason);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [staffSignedOut, setStaffSignedOut] = useState(notice === 'staff');
  // The second step (docs/adr/0098-client-two-factor-and-step-up.md): once the password matched an account with
  // two-factor sign-in, the form asks for the authenticator's code and sends both again.
  const [otpStep, setOtpStep] = useState(false);
  const [otp, setOtp] = useState('');

  // The failure is explained in place (with a resend action when the e-mail is unverified), so no toast repeats it.
  const signIn = useMutation({
    mutationFn: authApi.signIn,
    meta: { silentError: true },
    onError: (error) => {
      if (isApiError(error) && error.code === 'error.otp.required') setOtpStep(true);
    },
    onSuccess: (session) => {
      if (isStaffRole(session.userRole)) {
        // The refresh cookie the sign-in just set is revoked; this app keeps no staff session.
        authApi.logout().catch(() => undefined);
        setStaffSignedOut(true);
        return;
      }
      queryClient.clear();
      signInStore(session);
      // The address asked for before signing in, checked again here: the router hands a screen the search keys its
      // route did not validate as they came, so the check in `parseLoginSearch` alone would not hold.
      const back = safeReturnPath(redirect);
      if (back) router.history.push(back);
      else void navigate({ to: '/' });
    },
  });
  const resend = useMutation({ mutationFn: authApi.resendConfirmation });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      email: issueMessage(firstIssue(email.trim(), checkRequired, checkEmail)),
      password: issueMessage(checkRequired(password)),
    };
    setErrors(next);
    if (next.email || next.password) return;
    setStaffSignedOut(false);
    resend.reset();
    signIn.mutate(
      otpStep && otp.trim() !== ''
        ? { email: email.trim(), password, otp: otp.trim() }
        : { email: email.trim(), password },
    );
  };

  const notVerified = isApiError(signIn.error) && signIn.error.code === 'error.user.email.not.verified';
  // Asking for the code is the second step itself, not a failure to show.
  const otpAsked = isApiError(signIn.error) && signIn.error.code === 'error.otp.required';

  return (
    <AuthCard title={t('login.title')}>
      {staffSignedOut && (
        <Suspense fallback={null}>
          <StaffNotice />
        </Suspense>
      )}
      {endReason && !staffSignedOut && !signIn.isError && (
        <Alert severity="warning" data-testid="session-ended-notice">
          <AlertTitle>{t('login.ended.title')}</AlertTitle>
          {formatClientErrorMessage(endReason, lang)}
        </Alert>
      )}
      {signIn.isError && !otpAsked && (
        <Alert
          severity="error"
          data-testid="login-error"
          action={
            notVerified && !resend.isSuccess ? (
              <Button
                color="inherit"
                size="small"
                disabled={resend.isPending}
                onClick={() => resend.mutate({ email: email.trim(), language: lang })}
                data-testid="login-resend"
              >
                {t('login.resend')}
              </Button>
            ) : undefined
          }
        >
          {errorMessageFor(signIn.error, lang)}
        </Alert>
      )}
      {resend.isSuccess && <Alert severity="success">{t('login.resent')}</Alert>}
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={submit}
        aria-label={t('login.title')}
        data-testid="login-form"
      >
        <TextField
          label={t('form.email')}
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setErrors((current) => ({ ...current, email: undefined }));
          }}
          error={Boolean(errors.email)}
          helperText={errors.email}
          required
          fullWidth
          slotProps={{ htmlInput: { ...inputTestId('login-email'), dir: 'ltr' } }}
        />
        <PasswordField
          label={t('form.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setErrors((current) => ({ ...current, password: undefined }));
          }}
          error={Boolean(errors.password)}
          helperText={errors.password}
          required
          fullWidth
          slotProps={{ htmlInput: inputTestId('login-password') }}
        />
        {otpStep && (
          <Suspense fallback={null}>
            <LoginCodeStep value={otp} onChange={setOtp} />
          </Suspense>
        )}
        <Button type="submit" variant="contained" size="large" disabled={signIn.isPending} data-testid="login-submit">
          {signIn.isPending ? t('form.sending') : t('login.submit')}
        </Button>
      </Stack>
      <Stack spacing={1}>
        <RouterLink to="/reset-password" variant="body2">
          {t('login.forgot')}
        </RouterLink>
        <Typography variant="body2">
          {t('login.noAccount')} <RouterLink to="/sign-up">{t('login.toSignUp')}</RouterLink>
        </Typography>
      </Stack>
    </AuthCard>
  );
}
