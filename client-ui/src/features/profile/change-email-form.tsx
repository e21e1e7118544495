import { type FormEvent, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { checkEmail, checkRequired, firstIssue, normalizeEmail, type RuleIssue } from '@kupa/proto';
import { errorMessageFor, fieldErrorsOf, isApiError } from '../../lib/api/api-error';
import { notifyError } from '../../lib/api/query-client';
import { useT } from '../../lib/i18n/i18n';
import { ONE_TIME_CODE_ERRORS, OneTimeCodeField } from '../../lib/ui/one-time-code-field';
import { PasswordField } from '../../lib/ui/password-field';
import { inputTestId } from '../../lib/ui/test-ids';
import { useTwoFactorText } from '../../lib/ui/two-factor-text';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { emailChangeApi } from './email-change-api';
import { EMAIL_CHANGE_TEXT } from './email-change-text';

interface EmailChangeValues {
  newEmail: string;
  currentPassword: string;
}

const EMPTY: EmailChangeValues = { newEmail: '', currentPassword: '' };

/** Refusals about the address, said on its field rather than in a toast. */
const ADDRESS_ERRORS: ReadonlySet<string> = new Set(['error.login.already.in.use']);

export function validateEmailChange(values: EmailChangeValues): Partial<Record<keyof EmailChangeValues, RuleIssue>> {
  const issues: Partial<Record<keyof EmailChangeValues, RuleIssue>> = {};
  const address = firstIssue(normalizeEmail(values.newEmail), checkRequired, checkEmail);
  if (address) issues.newEmail = address;
  const password = checkRequired(values.currentPassword);
  if (password) issues.currentPassword = password;
  return issues;
}

/**
 * Asks to move the account to another address (`POST /email`, docs/adr/0100-change-of-e-mail.md): the current password
 * and, with two-factor sign-in on, a code, as the password form asks. Nothing changes until the link mailed to the new
 * address is opened, which the form says once it is sent.
 */
export function ChangeEmailForm({ twoFactorEnabled = false }: { twoFactorEnabled?: boolean }) {
  const { t, lang, issueMessage } = useT();
  const text = EMAIL_CHANGE_TEXT[lang];
  const tf = useTwoFactorText();
  const [values, setValues] = useState<EmailChangeValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof EmailChangeValues, string>>>({});
  const [otpCode, setOtpCode] = useState('');
  const [otpError, setOtpError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const ask = useMutation({
    mutationFn: emailChangeApi.ask,
    meta: { silentError: true },
    onSuccess: (_answer, request) => {
      setSentTo(request.newEmail);
      setValues(EMPTY);
      setOtpCode('');
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'error.password.current.incorrect') {
        setErrors({ currentPassword: errorMessageFor(error, lang) });
        passwordInput.current?.focus();
        return;
      }
      if (isApiError(error) && ADDRESS_ERRORS.has(error.code)) {
        setErrors({ newEmail: errorMessageFor(error, lang) });
        emailInput.current?.focus();
        return;
      }
      if (isApiError(error) && ONE_TIME_CODE_ERRORS.has(error.code)) {
        setOtpError(errorMessageFor(error, lang));
        return;
      }
      const fields = fieldErrorsOf(error, lang);
      setErrors(fields);
      if (Object.keys(fields).length === 0) notifyError(error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issues = validateEmailChange(values);
    setErrors({ newEmail: issueMessage(issues.newEmail), currentPassword: issueMessage(issues.currentPassword) });
    const codeMissing = twoFactorEnabled && otpCode.trim() === '';
    setOtpError(codeMissing ? tf('stepUpHint') : undefined);
    if (Object.keys(issues).length > 0 || codeMissing) return;
    setSentTo(null);
    const request = {
      newEmail: normalizeEmail(values.newEmail),
      currentPassword: values.currentPassword,
      language: lang,
    };
    ask.mutate(twoFactorEnabled ? { ...request, otpCode: otpCode.trim() } : request);
  };

  const change = (name: keyof EmailChangeValues) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="change-email-title" sx={{ p: 3 }}>
      <Typography id="change-email-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {text.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {text.intro}
      </Typography>
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={submit}
        aria-labelledby="change-email-title"
        sx={{ maxWidth: 480 }}
      >
        {sentTo && (
          <Alert severity="success" role="status" data-testid="profile-email-sent">
            {text.sent(`\u2066${sentTo}\u2069`)}
          </Alert>
        )}
        <TextField
          label={text.newEmail}
          type="email"
          value={values.newEmail}
          onChange={change('newEmail')}
          error={Boolean(errors.newEmail)}
          helperText={errors.newEmail}
          autoComplete="email"
          required
          fullWidth
          inputRef={emailInput}
          slotProps={{ htmlInput: { ...inputTestId('profile-newEmail'), dir: 'ltr' } }}
        />
        <PasswordField
          label={text.currentPassword}
          value={values.currentPassword}
          onChange={change('currentPassword')}
          error={Boolean(errors.currentPassword)}
          helperText={errors.currentPassword}
          autoComplete="current-password"
          required
          fullWidth
          inputRef={passwordInput}
          slotProps={{ htmlInput: inputTestId('profile-email-currentPassword') }}
        />
        {twoFactorEnabled && (
          <OneTimeCodeField
            value={otpCode}
            onChange={(value) => {
              setOtpCode(value);
              setOtpError(undefined);
            }}
            error={otpError}
            testId="profile-email-otp"
          />
        )}
        <div>
          <ReadOnlyAction>
            <Button type="submit" variant="contained" disabled={ask.isPending} data-testid="profile-email-submit">
              {ask.isPending ? t('form.sending') : text.submit}
            </Button>
          </ReadOnlyAction>
        </div>
      </Stack>
    </Paper>
  );
}
