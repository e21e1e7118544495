import TextField from '@mui/material/TextField';
import { LIMITS } from '@kupa/proto';
import { inputTestId } from './test-ids';
import { useTwoFactorText } from './two-factor-text';

interface OneTimeCodeFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  testId: string;
  autoFocus?: boolean;
}

/**
 * A code from the authenticator app, or a recovery code (docs/adr/0098-client-two-factor-and-step-up.md): left to
 * right in either language, offered by the phone's one-time-code autofill, never spell-checked.
 */
export function OneTimeCodeField({ value, onChange, error, testId, autoFocus }: OneTimeCodeFieldProps) {
  const tf = useTwoFactorText();
  return (
    <TextField
      label={tf('code')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ?? tf('codeHint')}
      required
      fullWidth
      autoFocus={autoFocus}
      autoComplete="one-time-code"
      slotProps={{
        htmlInput: {
          ...inputTestId(testId),
          dir: 'ltr',
          spellCheck: false,
          maxLength: LIMITS.otpMaxLength,
          autoCapitalize: 'off',
        },
      }}
    />
  );
}

/** The refusals a step-up call answers that belong beside the code field rather than in a toast. */
export const ONE_TIME_CODE_ERRORS: ReadonlySet<string> = new Set([
  'error.otp.step.up.required',
  'error.otp.invalid',
  'error.otp.reused',
  'error.otp.required',
  'error.rate.limited',
]);
