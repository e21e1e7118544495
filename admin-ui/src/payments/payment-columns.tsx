import type { Payment } from '@kupa/proto';
import { Typography } from '@mui/material';
import { DataTable, TextField, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { PaymentAmountField, PaymentStatusField } from '../shared/payment-display';

/**
 * The columns of a payments table, shared by the payments list and a client's payments tab (which leaves out the
 * user, since every row is that client's). Returned as an array because DataTable reads its columns from its
 * direct children.
 */
export function paymentColumns({ withUser }: { withUser: boolean }) {
  return [
    <DataTable.Col key="paymentId" source="paymentId">
      <Ltr>
        <TextField source="paymentId" />
      </Ltr>
    </DataTable.Col>,
    <DataTable.Col key="createdAt" source="createdAt">
      <DateTimeField source="createdAt" />
    </DataTable.Col>,
    withUser ? (
      <DataTable.Col key="userEmail" source="userEmail">
        <Ltr>
          <TextField source="userEmail" />
        </Ltr>
      </DataTable.Col>
    ) : null,
    <DataTable.Col key="amount" source="amount">
      <PaymentAmountField source="amount" />
      <CardReportedAmount />
      <PromoCodeLine />
    </DataTable.Col>,
    <DataTable.Col key="status" source="status">
      <PaymentStatusField source="status" />
    </DataTable.Col>,
    <DataTable.Col key="type" source="type">
      <EnumField source="type" enumName="paymentType" />
    </DataTable.Col>,
    <DataTable.Col key="method" source="method">
      <EnumField source="method" enumName="paymentMethod" />
    </DataTable.Col>,
    <DataTable.Col key="aggregator" source="aggregator">
      <EnumField source="aggregator" enumName="paymentAggregator" />
    </DataTable.Col>,
  ];
}

/** What a provider reported in its own currency (its ISO code as it wrote it), left to right inside any text. */
export function ReportedAmount({ reported }: { reported: { currency: string | null; amount: number } }) {
  return (
    <Ltr>
      {reported.amount.toFixed(2)} {(reported.currency ?? '?').toUpperCase()}
    </Ltr>
  );
}

/**
 * Under the amount asked, what a provider reported for a payment held for review (ADR 0058): a card checkout's amount
 * and currency, or a crypto deposit's dollars above the per-payment maximum. Nothing for any other payment. The
 * payments table and the phone cards (`PaymentCards`) both show it.
 */
export function CardReportedAmount() {
  const record = useRecordContext<Payment>();
  const held = record?.cashier?.amountHeld;
  const reported = record?.card?.reported ?? (typeof held === 'number' ? { currency: 'usd', amount: held } : null);
  if (!reported) return null;
  return (
    <div data-testid="payment-reported">
      <ReportedAmount reported={reported} />
    </div>
  );
}

/**
 * Under the amount of a payment that used a promo code, the code and what it took off (docs/adr/0088-promo-codes.md).
 * Nothing for any other payment. The payments table, the phone cards and the detail all show it.
 */
export function PromoCodeLine() {
  const record = useRecordContext<Payment>();
  const translate = useTranslate();
  const promoCode = record?.promoCode;
  if (!promoCode) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid="payment-promo-code">
      {translate('kupa.payments.promo_code', { code: promoCode.code })} <Money amount={promoCode.discount} />
    </Typography>
  );
}
