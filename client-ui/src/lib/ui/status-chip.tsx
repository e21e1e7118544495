import Chip from '@mui/material/Chip';
import CircleIcon from '@mui/icons-material/Circle';
import { type ColourIntent, INTENT_COLOURS } from '@kupa/proto';

/**
 * A status as a small chip coloured by its meaning (proto's intents), the same colours as in the staff console. The
 * colour is carried by the border and the dot; the words keep the text colour, since the warning and error shades are
 * too light for small text on a light page (WCAG AA).
 */
export function StatusChip({
  label,
  value,
  intent,
  testId,
}: {
  label: string;
  value: string;
  intent: ColourIntent;
  testId?: string;
}) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={INTENT_COLOURS[intent].badge}
      icon={<CircleIcon />}
      label={label}
      data-value={value}
      data-intent={intent}
      data-testid={testId}
      sx={{ '& .MuiChip-label': { color: 'text.primary' }, '& .MuiChip-icon': { fontSize: 10 } }}
    />
  );
}
