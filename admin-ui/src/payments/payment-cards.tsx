import { type Payment } from '@kupa/proto';
import { type RaRecord, SimpleList } from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { PaymentAmountField, PaymentStatusField } from '../shared/payment-display';
import { CardReportedAmount, PromoCodeLine } from './payment-columns';

/**
 * Payments on a phone, one card each (the payments list and a client's payments tab): amount and status first, with
 * what the provider reported under the amount of a payment held for review as in the table, then the payment's id,
 * type and time, and whose it is when the list holds everyone's.
 */
export function PaymentCards({ withUser, linkType }: { withUser: boolean; linkType: 'show' | false }) {
  return (
    <SimpleList<Payment & RaRecord>
      linkType={linkType}
      primaryText={
        <CardLine testId="payments-card" end={<PaymentStatusField source="status" />}>
          <PaymentAmountField source="amount" />
          <CardReportedAmount />
          <PromoCodeLine />
        </CardLine>
      }
      secondaryText={(record) => (
        <>
          <Ltr>#{record.paymentId}</Ltr> · <EnumField source="type" enumName="paymentType" /> ·{' '}
          <DateTimeField source="createdAt" />
          {withUser ? (
            <>
              <br />
              <Ltr>{record.userEmail}</Ltr>
            </>
          ) : null}
        </>
      )}
    />
  );
}
