import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { enumLabel, type Payment, type PaymentStatus, type PaymentType } from '@kupa/proto';
import { formatSignedDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';

/** Payment types that take money out of the client's balance; every other type brings money in. */
const OUTGOING_TYPES: ReadonlySet<PaymentType> = new Set<PaymentType>([
  'TRANSFER_OUT',
  'WITHDRAW',
  'SUBSCRIPTION_PAYMENT',
]);

/**
 * The amount as seen from the client's balance. The API sends a payment's size, and the direction comes from its
 * type, so the absolute value is taken first: a server that already signs outgoing amounts still shows them once.
 */
export function signedAmount(payment: Pick<Payment, 'amount' | 'type'>): number {
  const size = Math.abs(payment.amount);
  return OUTGOING_TYPES.has(payment.type) ? -size : size;
}

/** A signed USD amount, isolated with `<bdi>` so the sign and digits keep their order inside Hebrew text. */
export function PaymentAmount({ payment }: { payment: Pick<Payment, 'amount' | 'type'> }) {
  const { lang } = useT();
  const amount = signedAmount(payment);
  return (
    <Box
      component="bdi"
      sx={{ color: amount > 0 ? 'success.main' : 'text.primary', fontWeight: 600, whiteSpace: 'nowrap' }}
    >
      {formatSignedDollars(amount, lang)}
    </Box>
  );
}

const STATUS_COLOURS: Record<PaymentStatus, 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  PENDING: 'warning',
  SUCCESS: 'success',
  FAILED: 'error',
  REJECTED: 'error',
  REFUNDED: 'info',
  TIMEOUT: 'error',
};

/** The status as a small coloured chip with its label in the current language. */
export function PaymentStatusChip({ status }: { status: PaymentStatus }) {
  const { lang } = useT();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={STATUS_COLOURS[status] ?? 'default'}
      label={enumLabel('paymentStatus', status, lang)}
    />
  );
}
