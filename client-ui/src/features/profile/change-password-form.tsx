import { type FormEvent, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  checkNewPasswordDiffers,
  checkPassword,
  checkPasswordConfirmation,
  checkRequired,
  firstIssue,
  type RuleIssue,
} from '@kupa/proto';
import { errorMessageFor, fieldErrorsOf, isApiError } from '../../lib/api/api-error';
import { notifyError } from '../../lib/api/query-client';
import { usersApi } from '../../lib/api/endpoints';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { PasswordField } from '../../lib/ui/password-field';
import { inputTestId } from '../../lib/ui/test-ids';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { ONE_TIME_CODE_ERRORS, OneTimeCodeField } from '../../lib/ui/one-time-code-field';
import { useTwoFactorText } from '../../lib/ui/two-factor-text';

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

const EMPTY: PasswordValues = { oldPassword: '', password: '', confirmPassword: '' };

export function validatePasswordChange(values: PasswordValues): Partial<Record<keyof PasswordValues, RuleIssue>> {
  const issues: Partial<Record<keyof PasswordValues, RuleIssue>> = {};
  const old = checkRequired(values.oldPassword);
  if (old) issues.oldPassword = old;
  const next =
    firstIssue(values.password, checkRequired, checkPassword) ??
    checkNewPasswordDiffers(values.oldPassword, values.password);
  if (next) issues.password = next;
  const confirmation =
    checkRequired(values.confirmPassword) ?? checkPasswordConfirmation(values.password, values.confirmPassword);
  if (confirmation) issues.confirmPassword = confirmation;
  return issues;
}

/**
 * Changes the password (`PUT /password`), checked first with proto's password rules; with two-factor sign-in on it
 * also asks for a code (step-up, docs/adr/0098-client-two-factor-and-step-up.md).
 */
export function ChangePasswordForm({ twoFactorEnabled = false }: { twoFactorEnabled?: boolean }) {
  const { t, lang, issueMessage } = useT();
  const tf = useTwoFactorText();
  const [values, setValues] = useState<PasswordValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof PasswordValues, string>>>({});
  const [otpCode, setOtpCode] = useState('');
  const [otpError, setOtpError] = useState<string | undefined>();
  const oldPasswordInput = useRef<HTMLInputElement>(null);
  // A wrong current password is said on its field, where the eye already is, and the field takes the focus; a toast
  // would cover the Save button. Any other failure still shows as a toast.
  const change = useMutation({
    mutationFn: usersApi.changePassword,
    meta: { silentError: true },
    onSuccess: () => {
      setValues(EMPTY);
      setOtpCode('');
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('profile.passwordSaved') });
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'error.password.current.incorrect') {
        setErrors({ oldPassword: errorMessageFor(error, lang) });
        oldPasswordInput.current?.focus();
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
    const issues = validatePasswordChange(values);
    setErrors({
      oldPassword: issueMessage(issues.oldPassword),
      password: issueMessage(issues.password),
      confirmPassword: issueMessage(issues.confirmPassword),
    });
    const codeMissing = twoFactorEnabled && otpCode.trim() === '';
    setOtpError(codeMissing ? tf('stepUpHint') : undefined);
    if (Object.keys(issues).length === 0 && !codeMissing)
      change.mutate(twoFactorEnabled ? { ...values, otpCode: otpCode.trim() } : values);
  };

  const field = (name: keyof PasswordValues, label: string, autoComplete: string) => (
    <PasswordField
      label={label}
      value={values[name]}
      onChange={(event) => {
        setValues((current) => ({ ...current, [name]: event.target.value }));
        setErrors((current) => ({ ...current, [name]: undefined }));
      }}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      autoComplete={autoComplete}
      required
      fullWidth
      inputRef={name === 'oldPassword' ? oldPasswordInput : undefined}
      slotProps={{ htmlInput: inputTestId(`profile-${name}`) }}
    />
  );

  return (
    <Paper variant="outlined" component="section" aria-labelledby="change-password-title" sx={{ p: 3 }}>
      <Typography id="change-password-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('profile.changePassword')}
      </Typography>
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={submit}
        aria-labelledby="change-password-title"
        sx={{ maxWidth: 480 }}
      >
        {field('oldPassword', t('profile.oldPassword'), 'current-password')}
        {field('password', t('profile.newPassword'), 'new-password')}
        {field('confirmPassword', t('profile.confirmNewPassword'), 'new-password')}
        {twoFactorEnabled && (
          <OneTimeCodeField
            value={otpCode}
            onChange={(value) => {
              setOtpCode(value);
              setOtpError(undefined);
            }}
            error={otpError}
            testId="profile-otp"
          />
        )}
        <div>
          <ReadOnlyAction>
            <Button type="submit" variant="contained" disabled={change.isPending} data-testid="profile-password-submit">
              {change.isPending ? t('form.sending') : t('common.save')}
            </Button>
          </ReadOnlyAction>
        </div>
      </Stack>
    </Paper>
  );
}
