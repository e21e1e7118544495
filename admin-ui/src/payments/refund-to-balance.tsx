import type { RefundSubscriptionEnding, StaffPayment } from '@kupa/proto';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, type ReactNode, useState } from 'react';
import {
  Link,
  type RaRecord,
  useCreatePath,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { KupaDataProvider } from '../providers/data-provider';
import { isolateLtr } from '../shared/ltr';
import { formatAmount } from '../shared/money';
import { useLang } from '../shared/use-lang';

type PaymentRecord = StaffPayment & RaRecord;

/**
 * "Refund to balance" on a subscription payment's detail (docs/product.md, Refunding a subscription payment to the
 * balance): staff write why and choose whether the subscription ends now or runs to its end; a confirmation names the
 * amount, the client and that choice before anything is sent. A refunded payment shows its REFUND instead.
 */
export function RefundToBalance() {
  const record = useRecordContext<PaymentRecord>();
  const translate = useTranslate();
  const createPath = useCreatePath();
  if (!record || record.type !== 'SUBSCRIPTION_PAYMENT' || record.status !== 'SUCCESS') return null;
  if (record.refundedByPaymentId) {
    return (
      <Typography variant="body2" data-testid="payment-refunded">
        {translate('kupa.payments.refund.refunded')}{' '}
        <Link to={createPath({ resource: 'payments', id: record.refundedByPaymentId, type: 'show' })}>
          <bdi dir="ltr">#{record.refundedByPaymentId}</bdi>
        </Link>
      </Typography>
    );
  }
  return <RefundForm record={record} />;
}

function RefundForm({ record }: { record: PaymentRecord }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const lang = useLang();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [ending, setEnding] = useState<RefundSubscriptionEnding>('AT_PERIOD_END');
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const amount = isolateLtr(formatAmount(record.amount, lang));

  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setReasonError(translate('kupa.payments.refund.reason_required'));
      return;
    }
    setReasonError(null);
    setConfirming(true);
  };

  const refund = async () => {
    setPending(true);
    try {
      await dataProvider.refundPaymentToBalance(record.id, { reason: reason.trim(), subscriptionEnding: ending });
      notify('kupa.payments.refund.done', { type: 'success' });
      refresh();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setPending(false);
      setConfirming(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={ask} data-testid="payment-refund" sx={{ display: 'grid', gap: 1.5 }}>
      <Typography variant="body2" color="text.secondary">
        {translate('kupa.payments.refund.intro')}
      </Typography>
      <TextField
        size="small"
        multiline
        minRows={2}
        label={translate('kupa.payments.refund.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={reasonError !== null}
        helperText={reasonError ?? ' '}
        slotProps={{ htmlInput: { 'data-testid': 'payment-refund-reason', dir: 'auto' } }}
      />
      <RadioGroup
        value={ending}
        onChange={(event) => setEnding(event.target.value as RefundSubscriptionEnding)}
        data-testid="payment-refund-ending"
      >
        <FormControlLabel
          value="AT_PERIOD_END"
          control={<Radio size="small" />}
          label={translate('kupa.payments.refund.ending_at_end')}
        />
        <FormControlLabel
          value="NOW"
          control={<Radio size="small" />}
          label={translate('kupa.payments.refund.ending_now')}
        />
      </RadioGroup>
      <Box>
        <Button type="submit" variant="outlined" color="warning" disabled={pending} data-testid="payment-refund-open">
          {translate('kupa.payments.refund.open')}
        </Button>
      </Box>
      <Dialog open={confirming} onClose={() => !pending && setConfirming(false)} data-testid="payment-refund-dialog">
        <DialogTitle>{translate('kupa.payments.refund.confirm_title', { amount })}</DialogTitle>
        <DialogContent>
          <DialogContentText data-testid="payment-refund-confirm-text">
            {translate(ending === 'NOW' ? 'kupa.payments.refund.confirm_now' : 'kupa.payments.refund.confirm_at_end', {
              amount,
              email: isolateLtr(record.userEmail),
            })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={pending}>
            {translate('kupa.payments.refund.keep')}
          </Button>
          <Button
            variant="contained"
            color="warning"
            onClick={() => void refund()}
            disabled={pending}
            data-testid="payment-refund-confirm"
          >
            {translate('kupa.payments.refund.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/** The card the refund sits in, shown only on a subscription payment that was paid. */
export function RefundableCard({ children }: { children: ReactNode }) {
  const record = useRecordContext<PaymentRecord>();
  if (!record || record.type !== 'SUBSCRIPTION_PAYMENT' || record.status !== 'SUCCESS') return null;
  return (
    <Card variant="outlined" data-testid="payment-refund-card">
      <CardContent>{children}</CardContent>
    </Card>
  );
}
