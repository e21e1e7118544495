import { formatDollarsForIsolate } from '@kupa/proto';
import { Box } from '@mui/material';
import { type FieldProps, useFieldValue } from 'react-admin';
import { useLang } from './use-lang';

/**
 * A dollar amount from the API in the page language, for a left-to-right isolate (`Money`, `isolateLtr`): proto's
 * one format for amounts on screen.
 */
export const formatAmount = formatDollarsForIsolate;

interface MoneyProps {
  amount: number | null | undefined;
  testId?: string;
  /** Shows a plus on credits and colours credits green and debits red, for signed ledger amounts. */
  signed?: boolean;
}

/**
 * An amount in `<bdi dir="ltr">`, so the dollar sign and the minus stay where a reader expects them inside Hebrew
 * text. The raw value stays in `data-amount` for tests.
 */
export function Money({ amount, testId, signed = false }: MoneyProps) {
  const lang = useLang();
  if (amount === null || amount === undefined || !Number.isFinite(amount)) {
    return <span data-testid={testId}>—</span>;
  }
  const text = formatAmount(amount, lang);
  const color = signed && amount < 0 ? 'error.main' : signed && amount > 0 ? 'success.main' : undefined;
  return (
    <Box component="bdi" dir="ltr" data-testid={testId} data-amount={amount} sx={{ color, whiteSpace: 'nowrap' }}>
      {signed && amount > 0 ? `+${text}` : text}
    </Box>
  );
}

/** The react-admin field flavour of `Money`, for tables and show layouts. */
export function MoneyField({ testId, signed, ...props }: FieldProps & { testId?: string; signed?: boolean }) {
  const value = useFieldValue(props);
  const amount = typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value);
  return <Money amount={amount} testId={testId} signed={signed} />;
}
