import { DataTable, TextField } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
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
