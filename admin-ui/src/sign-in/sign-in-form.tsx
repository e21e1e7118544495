import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import {
  Alert,
  AlertTitle,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  TextField,
  Typography,
} from '@mui/material';
import { checkEmail, checkRequired, formatErrorMessage, firstIssue } from '@kupa/proto';
import { type FormEvent, useMemo, useState } from 'react';
import { useText, useTextLang } from '../i18n/text';
import { LanguageToggle } from '../layout/language-toggle';
import { type LoginParams } from '../providers/auth-provider';
import { ApiError } from '../providers/http-client';
import { session } from '../providers/session';
import { type EnrolmentAuthority, enrolmentTokenOf } from '../providers/two-factor';
import { PasswordField } from '../shared/password-field';
import { TwoFactorEnrolment } from '../two-factor/two-factor-enrolment';

/**
 * Where sign-in stands: e-mail and password; the one-time code of a staff member with two-factor sign-in on; or
 * enrolment first, when the policy requires two-factor sign-in and the staff member has none yet.
 */
type Step = { kind: 'credentials' } | { kind: 'code' } | { kind: 'enrol'; enrolmentToken: string };

/**
 * Staff sign-in. react-admin's default form signs in with a "username"; ours sends `{email, password}` as the API
 * expects, validates the e-mail with proto's rule, and shows the server's catalogue message (or the
 * "use the client app" refusal) right on the form. When the server asks for a one-time code, the form asks for it and
 * sends the same credentials again with it (docs/adr/0018-staff-two-factor-sign-in.md).
 *
 * It needs no react-admin: the first screen of a signed-out user is this form alone, and the console loads once it has
 * signed in (docs/adr/0044-console-signs-in-before-loading-react-admin.md). `signIn` resolves once signed in.
 */
export function SignInForm({ signIn }: { signIn(params: LoginParams): Promise<unknown> }) {
  const translate = useText();
  const lang = useTextLang();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const [otp, setOtp] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  // Read once: the explanation of how the last session ended stays until the next sign-in replaces it.
  const [endReason] = useState(() => session.endReason());

  const send = async (code?: string) => {
    setPending(true);
    setError(null);
    try {
      await signIn({ email: email.trim(), password, ...(code === undefined ? {} : { otp: code }) });
    } catch (caught) {
      const enrolmentToken = enrolmentTokenOf(caught);
      if (enrolmentToken) {
        setStep({ kind: 'enrol', enrolmentToken });
      } else if (caught instanceof ApiError && caught.code === 'error.otp.required') {
        setStep({ kind: 'code' });
      } else {
        setError(
          caught instanceof Error && caught.message
            ? caught.message
            : formatErrorMessage('error.internal.server.error', lang),
        );
      }
      setPending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (step.kind === 'code') {
      if (otp.trim() !== '') await send(otp.trim());
      return;
    }
    const issue = firstIssue(email.trim(), checkRequired, checkEmail);
    setEmailError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    if (issue || password === '') return;
    await send();
  };

  const backToCredentials = () => {
    setStep({ kind: 'credentials' });
    setOtp('');
    setError(null);
    setNotice(null);
  };

  const enrolmentAuthority = useMemo<EnrolmentAuthority | null>(
    () => (step.kind === 'enrol' ? { kind: 'enrolment-token', token: step.enrolmentToken } : null),
    [step],
  );

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 2,
      }}
    >
      <LanguageToggle sx={{ position: 'fixed', top: 8, insetInlineEnd: 8 }} />
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent>
          <Box
            // During enrolment the card holds the enrolment's own form, and forms must not nest.
            component={step.kind === 'enrol' ? 'div' : 'form'}
            noValidate
            onSubmit={step.kind === 'enrol' ? undefined : submit}
            aria-labelledby="login-title"
            data-testid="login-form"
          >
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 2 }}>
              <Avatar sx={{ bgcolor: 'secondary.main', mb: 1 }}>
                <LockOutlinedIcon />
              </Avatar>
              <Typography id="login-title" variant="h5" component="h1">
                {translate('kupa.login.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('kupa.app.title')}
              </Typography>
            </Box>
            {endReason && step.kind === 'credentials' && !error ? (
              <Alert severity="warning" data-testid="login-session-ended" sx={{ mb: 2 }}>
                <AlertTitle>{translate('kupa.login.session_ended')}</AlertTitle>
                {formatErrorMessage(endReason, lang)}
              </Alert>
            ) : null}
            {notice ? (
              <Alert severity="success" data-testid="login-notice" sx={{ mb: 2 }}>
                {notice}
              </Alert>
            ) : null}
            {error ? (
              <Alert severity="error" role="alert" data-testid="login-error" sx={{ mb: 2 }}>
                {error}
              </Alert>
            ) : null}
            {step.kind === 'credentials' ? (
              <>
                <TextField
                  label={translate('kupa.login.email')}
                  type="email"
                  autoComplete="username"
                  fullWidth
                  margin="normal"
                  required
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  error={emailError !== null}
                  helperText={emailError ?? undefined}
                  slotProps={{ htmlInput: { 'data-testid': 'login-email', dir: 'ltr' } }}
                />
                <PasswordField
                  label={translate('kupa.login.password')}
                  autoComplete="current-password"
                  fullWidth
                  margin="normal"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  slotProps={{ htmlInput: { 'data-testid': 'login-password' } }}
                />
              </>
            ) : null}
            {step.kind === 'code' ? (
              <>
                <Typography variant="body2" data-testid="login-otp-intro">
                  {translate('kupa.login.otp_intro')}
                </Typography>
                <TextField
                  label={translate('kupa.login.otp')}
                  autoComplete="one-time-code"
                  fullWidth
                  margin="normal"
                  required
                  autoFocus
                  value={otp}
                  onChange={(event) => setOtp(event.target.value)}
                  helperText={translate('kupa.login.otp_hint')}
                  slotProps={{ htmlInput: { 'data-testid': 'login-otp', dir: 'ltr' } }}
                />
              </>
            ) : null}
            {step.kind === 'enrol' && enrolmentAuthority ? (
              <>
                <Alert severity="info" sx={{ mb: 2 }} data-testid="login-enrol-intro">
                  {translate('kupa.login.enrol_intro')}
                </Alert>
                <TwoFactorEnrolment
                  authority={enrolmentAuthority}
                  onDone={() => {
                    setStep({ kind: 'code' });
                    setNotice(translate('kupa.login.enrolled'));
                  }}
                />
              </>
            ) : (
              <Button
                type="submit"
                variant="contained"
                fullWidth
                sx={{ mt: 2 }}
                disabled={pending || (step.kind === 'code' && otp.trim() === '')}
                data-testid="login-submit"
                startIcon={pending ? <CircularProgress size={18} color="inherit" /> : null}
              >
                {translate('kupa.login.submit')}
              </Button>
            )}
            {step.kind !== 'credentials' ? (
              <Box sx={{ mt: 1, textAlign: 'center' }}>
                <Button size="small" onClick={backToCredentials} data-testid="login-back">
                  {translate('kupa.login.back')}
                </Button>
              </Box>
            ) : null}
            <Box sx={{ mt: 2, textAlign: 'center' }}>
              <Link href="/" variant="body2">
                {translate('kupa.login.client_app')}
              </Link>
            </Box>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
