import { type SxProps, TextField, type Theme } from '@mui/material';
import { type Choice } from './enum-choices';

interface NativeSelectProps<T extends string> {
  label: string;
  value: T;
  choices: readonly Choice[];
  onChange(value: T): void;
  testId: string;
  disabled?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * A native `<select>` in MUI's outlined frame. A native select keeps the control simple for keyboards, screen
 * readers and browser tests alike (Playwright's `selectOption` works on it directly).
 */
export function NativeSelect<T extends string>({
  label,
  value,
  choices,
  onChange,
  testId,
  disabled,
  sx,
}: NativeSelectProps<T>) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as T)}
      sx={sx}
      slotProps={{ select: { native: true }, htmlInput: { 'data-testid': testId } }}
    >
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.name}
        </option>
      ))}
    </TextField>
  );
}
