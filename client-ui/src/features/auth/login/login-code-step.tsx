import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { OneTimeCodeField } from '../../../lib/ui/one-time-code-field';
import { useTwoFactorText } from '../../../lib/ui/two-factor-text';

/**
 * The sign-in form's second step for an account with two-factor sign-in (docs/adr/0098-client-two-factor-and-step-up.md).
 * Loaded only when the server asks for a code, so the sign-in page in the first screen's chunk does not carry it
 * (docs/adr/0048-first-screen-in-one-chunk.md).
 */
export function LoginCodeStep({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const tf = useTwoFactorText();
  return (
    <Stack spacing={1} data-testid="login-otp-step">
      <Typography variant="body2">{tf('signInTitle')}</Typography>
      <OneTimeCodeField value={value} onChange={onChange} testId="login-otp" autoFocus />
    </Stack>
  );
}
