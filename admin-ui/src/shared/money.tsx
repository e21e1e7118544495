import { formatMoney, type Language } from '@kupa/proto';
import { Box } from '@mui/material';
import { type FieldProps, useFieldValue } from 'react-admin';
import { useLang } from './use-lang';

const MONEY_LOCALES: Readonly<Record<Language, string>> = { he: 'he-IL', en: 'en-US' };

/** Direction marks that the Hebrew number format puts around the sign and the currency symbol. */
const BIDI_MARKS = /[\u200e\u200f\u061c]/g;

/**
 * Formats a dollar amount from the API (a number with at most two decimals, possibly negative in the ledger) as USD
 * in the page language. Rounding to cents only removes the float noise of the JSON number before proto formats it.
 * The Hebrew format's direction marks are dropped: the amount is always shown isolated left to right (`Money`,
 * `isolateLtr`), and inside such an isolate the marks would push a leading plus or minus away from the digits.
 */
export function formatAmount(amount: number, lang: Language): string {
  return formatMoney(Math.round(amount * 100), MONEY_LOCALES[lang]).replace(BIDI_MARKS, '');
}

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
