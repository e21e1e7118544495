import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { visuallyHidden } from '@mui/utils';
import {
  clientEnumLabel,
  INTENT_COLOURS,
  type Payment,
  PAYMENT_BONUS_MARK,
  paymentAmountLook,
  paymentAmountStateHint,
  type PaymentStatus,
  paymentStatusIntent,
} from '@kupa/proto';
import { formatDollars, formatSignedDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { StatusChip } from '../../lib/ui/status-chip';

/**
 * A payment's amount as seen from the client's balance, by proto's rule (docs/product.md, Ledger, How payments are
 * shown): signed by direction, green in and red out once the money moved, muted while pending, muted and struck
 * through when it never counted (never a green plus). Isolated with `<bdi dir="ltr">` so the sign and digits keep
 * their order inside Hebrew text. An ambassador bonus is drawn in the bonus colour with a "Bonus" chip, apart from
 * money the client paid.
 */
export function PaymentAmount({ payment }: { payment: Pick<Payment, 'amount' | 'type' | 'status'> }) {
  const { lang } = useT();
  const look = paymentAmountLook(payment);
  const hint = paymentAmountStateHint(look.state, lang);
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <Box
        component="bdi"
        dir="ltr"
        data-amount={payment.amount}
        data-signed-amount={look.signedAmount}
        data-intent={look.intent}
        data-state={look.state}
        sx={{
          color: INTENT_COLOURS[look.intent].text,
          textDecoration: look.struck ? 'line-through' : undefined,
          fontWeight: look.muted ? 400 : 600,
        }}
      >
        {formatSignedDollars(look.signedAmount, lang)}
      </Box>
      {/* Read by screen readers, not drawn: the strike-through and the muted colour say the same to the eye. */}
      {hint ? <Box component="span" sx={visuallyHidden}>{` (${hint})`}</Box> : null}
      {look.bonus ? (
        // Said in words, not only in colour: bonus money is the house's gift, apart from money the client paid.
        <Chip
          size="small"
          variant="outlined"
          color={INTENT_COLOURS.bonus.badge}
          label={PAYMENT_BONUS_MARK[lang]}
          data-testid="payment-bonus-mark"
          sx={{ marginInlineStart: 0.75, height: 20, '& .MuiChip-label': { color: 'text.primary', px: 0.75 } }}
        />
      ) : null}
    </Box>
  );
}

/** The status as a small chip coloured by its meaning, the same colours as in the staff console. */
export function PaymentStatusChip({ status }: { status: PaymentStatus }) {
  const { lang } = useT();
  return (
    <StatusChip
      label={clientEnumLabel('paymentStatus', status, lang)}
      value={status}
      intent={paymentStatusIntent(status)}
    />
  );
}

/**
 * The promo code a subscription payment used and what it took off (docs/adr/0088-promo-codes.md); nothing for a
 * payment without one. The code and the amount are isolated, so they keep their order inside Hebrew text.
 */
export function PaymentPromoCode({ payment, testId }: { payment: Pick<Payment, 'promoCode'>; testId: string }) {
  const { tIsolated, lang } = useT();
  if (!payment.promoCode) return null;
  return (
    <Box component="span" data-testid={testId}>
      {tIsolated('payment.promoCode', {
        code: payment.promoCode.code,
        discount: formatDollars(payment.promoCode.discount, lang),
      })}
    </Box>
  );
}
