import {
  enumLabel,
  INTENT_COLOURS,
  type Payment,
  PAYMENT_BONUS_MARK,
  paymentAmountLook,
  paymentAmountStateHint,
  type PaymentStatus,
  paymentStatusIntent,
} from '@kupa/proto';
import CircleIcon from '@mui/icons-material/Circle';
import { visuallyHidden } from '@mui/utils';
import { Box, Chip } from '@mui/material';
import { type FieldProps, useFieldValue, useRecordContext } from 'react-admin';
import { formatAmount } from './money';
import { useLang } from './use-lang';

type AmountSource = Pick<Payment, 'amount' | 'type' | 'status'>;

/**
 * A payment's amount by proto's rule (docs/product.md, Ledger, How payments are shown): signed by direction, green in
 * and red out when the money moved, muted while pending, muted and struck through when it never counted. The amount
 * sits in `<bdi dir="ltr">` so its sign and currency keep their places inside Hebrew text. An ambassador bonus is
 * drawn in the bonus colour with a "Bonus" chip, apart from money the client paid.
 */
export function PaymentAmount({ payment, testId }: { payment: AmountSource; testId?: string }) {
  const lang = useLang();
  const look = paymentAmountLook(payment);
  const hint = paymentAmountStateHint(look.state, lang);
  const text = formatAmount(look.signedAmount, lang);
  return (
    <Box component="span" data-testid={testId} sx={{ whiteSpace: 'nowrap' }}>
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
          fontWeight: look.muted ? undefined : 500,
        }}
      >
        {look.signedAmount > 0 ? `+${text}` : text}
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

/** The react-admin field flavour of `PaymentAmount`: the record in context is the payment. */
export function PaymentAmountField({ testId }: FieldProps & { testId?: string }) {
  const record = useRecordContext<AmountSource>();
  if (!record || typeof record.amount !== 'number') return <span data-testid={testId}>—</span>;
  return <PaymentAmount payment={record} testId={testId} />;
}

/** A payment status as a badge coloured by its meaning, the same colours as in the client app. */
export function PaymentStatusChip({ status }: { status: PaymentStatus }) {
  const lang = useLang();
  const intent = paymentStatusIntent(status);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={INTENT_COLOURS[intent].badge}
      icon={<CircleIcon />}
      label={enumLabel('paymentStatus', status, lang)}
      data-value={status}
      data-intent={intent}
      // The colour is carried by the border and the dot; the words stay in the text colour, since the warning and
      // error shades are too light for small text on a light page (WCAG AA).
      sx={{ '& .MuiChip-label': { color: 'text.primary' }, '& .MuiChip-icon': { fontSize: 10 } }}
    />
  );
}

export function PaymentStatusField(props: FieldProps) {
  const status = useFieldValue({ ...props, source: props.source ?? 'status' }) as PaymentStatus | undefined;
  return status ? <PaymentStatusChip status={status} /> : null;
}
