import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import {
  Alert,
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
import { type FormEvent, useState } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { useLang } from '../shared/use-lang';
import { LanguageToggle } from './language-toggle';

/**
 * Staff sign-in. react-admin's default form signs in with a "username"; ours sends `{email, password}` as the API
 * expects, validates the e-mail with proto's rule, and shows the server's catalogue message (or the
 * "use the client app" refusal) right on the form.
 */
export function LoginPage() {
  const translate = useTranslate();
  const lang = useLang();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const issue = firstIssue(email.trim(), checkRequired, checkEmail);
    setEmailError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    if (issue || password === '') return;
    setPending(true);
    setError(null);
    try {
      await login({ email: email.trim(), password });
    } catch (caught) {
      setError(
        caught instanceof Error && caught.message
          ? caught.message
          : formatErrorMessage('error.internal.server.error', lang),
      );
      setPending(false);
    }
  };

  return (
    <Box
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
          <Box component="form" noValidate onSubmit={submit} aria-labelledby="login-title" data-testid="login-form">
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
            {error ? (
              <Alert severity="error" role="alert" data-testid="login-error" sx={{ mb: 2 }}>
                {error}
              </Alert>
            ) : null}
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
            <TextField
              label={translate('kupa.login.password')}
              type="password"
              autoComplete="current-password"
              fullWidth
              margin="normal"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              slotProps={{ htmlInput: { 'data-testid': 'login-password', dir: 'ltr' } }}
            />
            <Button
              type="submit"
              variant="contained"
              fullWidth
              sx={{ mt: 2 }}
              disabled={pending}
              data-testid="login-submit"
              startIcon={pending ? <CircularProgress size={18} color="inherit" /> : null}
            >
              {translate('kupa.login.submit')}
            </Button>
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
