import { BooleanField, DataTable, TextField } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { MoneyField } from '../shared/money';
import { PlanNameField, ShortIdField, SubscriptionPeriodField, SubscriptionStateField } from './subscription-fields';

/**
 * Eleven columns fit beside the sidebar at 1280 px only with half MUI's cell padding: with the full 16 px each side,
 * the last column (Created) fell off the table's end (ADR 0078).
 */
export const COMPACT_CELLS = { '& .MuiTableCell-root': { paddingInline: '8px' } } as const;

/** A date keeps to one line: a column that wraps it pushes the last columns past a 1280 px screen. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

/**
 * The columns of a subscriptions table, shared by the subscriptions list and a client's subscriptions tab (which
 * leaves out the client, since every row is theirs). Sortable exactly where proto's `SORTABLE_COLUMNS` allows. The
 * dates are days here, which is what a list is scanned by; the subscription's page has their times (ADR 0078).
 */
export function subscriptionColumns({ withUser }: { withUser: boolean }) {
  return [
    <DataTable.Col key="id" source="id" disableSort>
      <ShortIdField />
    </DataTable.Col>,
    withUser ? (
      <DataTable.Col key="userEmail" source="userEmail">
        <Ltr>
          <TextField source="userEmail" />
        </Ltr>
      </DataTable.Col>
    ) : null,
    <DataTable.Col key="paymentPlan" source="paymentPlan.planName" disableSort>
      <PlanNameField />
    </DataTable.Col>,
    <DataTable.Col key="status" source="status">
      <SubscriptionStateField />
    </DataTable.Col>,
    <DataTable.Col key="type" source="type">
      <EnumField source="type" enumName="subscriptionType" />
    </DataTable.Col>,
    <DataTable.Col key="durationInMonth" source="durationInMonth">
      <SubscriptionPeriodField />
    </DataTable.Col>,
    <DataTable.Col key="price" source="price">
      <MoneyField source="price" />
    </DataTable.Col>,
    <DataTable.Col key="isRecurrent" source="isRecurrent" disableSort>
      <BooleanField source="isRecurrent" />
    </DataTable.Col>,
    <DataTable.Col key="startDate" source="startDate">
      <DateTimeField source="startDate" emptyText="—" showTime={false} sx={NO_WRAP} />
    </DataTable.Col>,
    <DataTable.Col key="endDate" source="endDate">
      <DateTimeField source="endDate" emptyText="—" showTime={false} sx={NO_WRAP} />
    </DataTable.Col>,
    <DataTable.Col key="createdAt" source="createdAt">
      <DateTimeField source="createdAt" showTime={false} sx={NO_WRAP} />
    </DataTable.Col>,
  ];
}
