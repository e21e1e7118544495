import { CUSTOMER_ROLES } from '@kupa/proto';
import { DataTable, DateInput, TextField } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { Money, MoneyField } from '../shared/money';
import { Ltr } from '../shared/ltr';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { PeopleList, PERSON_COLUMNS, PersonCards, usePersonFilters } from './people-list';
import { ReferrerField } from './referrer-field';

const ClientRows = bodyWithRowTestId('clients-row');

function useClientFilters() {
  const { keyWord, statuses, roles } = usePersonFilters(CUSTOMER_ROLES, 'clients-search');
  return [
    keyWord,
    statuses,
    roles,
    <DateInput key="registrationDateFrom" source="registrationDateFrom" />,
    <DateInput key="registrationDateTo" source="registrationDateTo" />,
  ];
}

export function ClientList() {
  return (
    <PeopleList
      filters={useClientFilters()}
      // A client on a phone: name and status first, then the e-mail, the balance and when they registered.
      cards={
        <PersonCards
          testId="clients-card"
          linkType="show"
          details={(record) => (
            <>
              <Money amount={record.balance} testId="clients-card-balance" />
              <br />
              <DateTimeField source="userCreatedAt" />
            </>
          )}
        />
      }
      table={
        <DataTable rowClick="show" bulkActionButtons={false} body={ClientRows}>
          {PERSON_COLUMNS.nameAndEmail}
          <DataTable.Col source="profileId" disableSort>
            <Ltr>
              <TextField source="profileId" />
            </Ltr>
          </DataTable.Col>
          {PERSON_COLUMNS.role}
          {PERSON_COLUMNS.status}
          {/* Sorted by the server over every client (ADR 0078), not within the page. */}
          <DataTable.Col source="balance">
            <MoneyField source="balance" testId="clients-balance" />
          </DataTable.Col>
          <DataTable.Col source="referrer" disableSort>
            <ReferrerField />
          </DataTable.Col>
          {PERSON_COLUMNS.registered}
        </DataTable>
      }
    />
  );
}
