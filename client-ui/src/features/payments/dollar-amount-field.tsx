import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { inputTestId } from '../../lib/ui/test-ids';

/**
 * A typed amount in dollars, as every money form asks it: left to right whatever the page's direction, a decimal
 * keyboard on phones, the dollar sign before it. The text is read by the form (`parseAmountInput`), not here.
 */
export function DollarAmountField(props: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  error?: string;
  /** Shown under the field when there is no error. */
  hint?: ReactNode;
  testId: string;
}) {
  const { label, value, onChange, error, hint, testId } = props;
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ?? hint}
      required
      fullWidth
      slotProps={{
        htmlInput: { ...inputTestId(testId), dir: 'ltr', inputMode: 'decimal' },
        input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
      }}
    />
  );
}
