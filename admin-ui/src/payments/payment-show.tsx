import type { ReactNode } from 'react';
import {
  CARD_PROVIDER_STATUS_LABELS,
  CASHIER_PROVIDER_STATUS_LABELS,
  type Payment,
  type StaffPayment,
} from '@kupa/proto';
import { Box, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import {
  FunctionField,
  Link,
  type RaRecord,
  Show,
  SimpleShowLayout,
  TextField,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { PaymentAmountField, PaymentStatusField } from '../shared/payment-display';
import { RecordLoadError } from '../shared/record-load-error';
import { formatAmount, Money } from '../shared/money';
import { useLang } from '../shared/use-lang';
import { ReportedAmount } from './payment-columns';
import { PaymentStatusForm } from './payment-status-form';
import { RefundToBalance, RefundableCard } from './refund-to-balance';

type PaymentRecord = StaffPayment & RaRecord;

const TRANSFER_TYPES: readonly string[] = ['TRANSFER_IN', 'TRANSFER_OUT'];

function PaymentTitle() {
  const record = useRecordContext<PaymentRecord>();
  const translate = useTranslate();
  const name = translate('resources.payments.name', { smart_count: 1 });
  return <>{record ? `${name} #${record.paymentId}` : name}</>;
}

function UserLink() {
  const record = useRecordContext<PaymentRecord>();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <Link to={createPath({ resource: 'clients', id: record.userUuid, type: 'show' })} data-testid="payment-user-link">
      <Ltr>{record.userEmail}</Ltr>
    </Link>
  );
}

/** Text staff typed, in either language: its own direction, and long unbroken words wrap. */
const freeText = (source: 'comment' | 'publicNote', testId: string) => (payment: PaymentRecord) =>
  payment[source] ? (
    <Box component="span" dir="auto" data-testid={testId} sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {payment[source]}
    </Box>
  ) : (
    '—'
  );

const ltr = (source: keyof Payment) => (payment: PaymentRecord) =>
  payment[source] === null || payment[source] === undefined || payment[source] === '' ? (
    '—'
  ) : (
    <Ltr>{String(payment[source])}</Ltr>
  );

/** Both sides of a transfer, by profile ID; other payment types have no second party. */
function TransferParties() {
  const record = useRecordContext<PaymentRecord>();
  if (!record || !TRANSFER_TYPES.includes(record.type)) return null;
  return (
    <SimpleShowLayout sx={{ p: 0 }} data-testid="payment-transfer">
      <FunctionField source="senderProfileId" render={ltr('senderProfileId')} />
      <FunctionField source="recipientProfileId" render={ltr('recipientProfileId')} />
      <FunctionField source="transferId" render={ltr('transferId')} />
    </SimpleShowLayout>
  );
}

/**
 * A crypto deposit's side at the cashier: which cashier, its invoice and payment, its last status, and the amounts
 * asked and received (more or less than asked arrives, and is what was credited). Other payments have none.
 */
function CashierDetails() {
  const record = useRecordContext<PaymentRecord>();
  const translate = useTranslate();
  const lang = useLang();
  const cashier = record?.cashier;
  if (!cashier) return null;
  const label = (field: string) => translate(`kupa.payments.cashier.${field}`);
  const money = (amount: number) => <bdi dir="ltr">{formatAmount(amount, lang)}</bdi>;
  const rows: Array<[string, ReactNode]> = [
    ['provider', cashier.provider],
    ['providerPaymentId', cashier.providerPaymentId ? <Ltr>{cashier.providerPaymentId}</Ltr> : '—'],
    ['providerStatus', cashier.providerStatus ? CASHIER_PROVIDER_STATUS_LABELS[cashier.providerStatus][lang] : '—'],
    ['invoiceId', <Ltr key="invoice">{cashier.invoiceId}</Ltr>],
    ['payCurrency', <Ltr key="coin">{cashier.payCurrency.toUpperCase()}</Ltr>],
    ['amountAsked', money(cashier.amountAsked)],
    ['amountReceived', money(cashier.amountReceived)],
    // Dollars above the per-payment maximum: held for review, nothing credited (ADR 0058).
    ...(typeof cashier.amountHeld === 'number'
      ? [['amountHeld', money(cashier.amountHeld)] as [string, ReactNode]]
      : []),
  ];
  return <DetailList testId="payment-cashier" rows={rows} label={label} />;
}

/**
 * A card deposit's side at the card provider (docs/adr/0029-card-checkout.md): which provider, its checkout session
 * and payment, where the checkout stands, and the amounts asked and received. Other payments have none.
 */
function CardDetails() {
  const record = useRecordContext<PaymentRecord>();
  const translate = useTranslate();
  const lang = useLang();
  const card = record?.card;
  if (!card) return null;
  const money = (amount: number) => <bdi dir="ltr">{formatAmount(amount, lang)}</bdi>;
  const rows: Array<[string, ReactNode]> = [
    ['provider', card.provider],
    ['providerPaymentId', card.providerPaymentId ? <Ltr>{card.providerPaymentId}</Ltr> : '—'],
    ['providerStatus', CARD_PROVIDER_STATUS_LABELS[card.providerStatus][lang]],
    ['checkoutSessionId', <Ltr key="session">{card.checkoutSessionId}</Ltr>],
    ['amountAsked', money(card.amountAsked)],
    ['amountReceived', money(card.amountReceived)],
    // A paid checkout that reported other money than was asked: held for review, nothing credited (ADR 0058).
    ...(card.reported
      ? [['reported', <ReportedAmount key="reported" reported={card.reported} />] as [string, ReactNode]]
      : []),
  ];
  return <DetailList testId="payment-card" rows={rows} label={(field) => translate(`kupa.payments.card.${field}`)} />;
}

/** Labelled values as a definition list, each row findable by `{testId}-{field}`. */
function DetailList({
  testId,
  rows,
  label,
}: {
  testId: string;
  rows: Array<[string, ReactNode]>;
  label: (field: string) => string;
}) {
  return (
    <Box component="dl" data-testid={testId} sx={{ m: 0, display: 'grid', gap: 1 }}>
      {rows.map(([field, value]) => (
        <Box key={field} data-testid={`${testId}-${field}`}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {label(field)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The promo code a subscription payment used and its discount; nothing for a payment without one (ADR 0088). */
function PromoCodeDetail() {
  const record = useRecordContext<Payment>();
  const translate = useTranslate();
  if (!record?.promoCode) return null;
  return (
    <SimpleShowLayout sx={{ p: 0 }}>
      <FunctionField
        source="promoCode"
        render={(payment: Payment) =>
          payment.promoCode ? (
            <span data-testid="payment-promo-code">
              {translate('kupa.payments.promo_code', { code: payment.promoCode.code })}{' '}
              <Money amount={payment.promoCode.discount} />
            </span>
          ) : null
        }
      />
    </SimpleShowLayout>
  );
}

/** Payment details (`/payments/{id}`, admin only) with the manual status change beside them. */
export function PaymentShow() {
  const translate = useTranslate();
  return (
    <Show
      title={<PaymentTitle />}
      actions={false}
      error={
        <RecordLoadError
          notFoundCode="error.payment.not.found"
          backLabel="kupa.payments.back_to_list"
          fallbackPath="/payments"
        />
      }
      // The error screen above replaces react-admin's default "element does not exist" toast and redirect.
      queryOptions={{ onError: () => undefined }}
    >
      <Grid container spacing={3} sx={{ p: 2, overflowWrap: 'anywhere' }} data-testid="payment-detail">
        <Grid size={{ xs: 12, md: 7 }}>
          {/*
            The fields come in several layouts (the payment's own, a transfer's, a deposit's at its provider, the
            times); each layout spaces only its own fields, so the column spaces the layouts the same way, or the last
            field of one ("Note to the client") sits against the first label of the next ("Created").
          */}
          <Stack spacing={1}>
            <SimpleShowLayout sx={{ p: 0 }}>
              <FunctionField source="paymentId" render={ltr('paymentId')} />
              <FunctionField source="userEmail" render={() => <UserLink />} />
              <PaymentAmountField source="amount" testId="payment-amount" />
              <EnumField source="currency" enumName="currency" />
              <PaymentStatusField source="status" />
              <EnumField source="type" enumName="paymentType" />
              <EnumField source="method" enumName="paymentMethod" />
              <EnumField source="aggregator" enumName="paymentAggregator" />
              <FunctionField source="comment" render={freeText('comment', 'payment-comment')} />
              <FunctionField source="publicNote" render={freeText('publicNote', 'payment-public-note')} />
            </SimpleShowLayout>
            <PromoCodeDetail />
            <TransferParties />
            <CashierDetails />
            <CardDetails />
            <SimpleShowLayout sx={{ p: 0 }}>
              <DateTimeField source="createdAt" />
              <TextField source="createdBy" />
              <DateTimeField source="updatedAt" />
              <TextField source="updatedBy" />
            </SimpleShowLayout>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            <Card variant="outlined">
              <CardContent>
                <Typography variant="subtitle1" component="h2" gutterBottom>
                  {translate('kupa.payments.status.title')}
                </Typography>
                <PaymentStatusForm />
              </CardContent>
            </Card>
            <RefundableCard>
              <Typography variant="subtitle1" component="h2" gutterBottom>
                {translate('kupa.payments.refund.title')}
              </Typography>
              <RefundToBalance />
            </RefundableCard>
          </Stack>
        </Grid>
      </Grid>
    </Show>
  );
}
