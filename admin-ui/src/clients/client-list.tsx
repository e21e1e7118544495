import { CUSTOMER_ROLES, LIMITS, type User, USER_STATUSES } from '@kupa/proto';
import {
  DataTable,
  DateInput,
  List,
  type RaRecord,
  SearchInput,
  SelectArrayInput,
  SimpleList,
  TextField,
} from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { Money, MoneyField } from '../shared/money';
import { Ltr } from '../shared/ltr';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { ListPagination } from '../shared/list-pagination';
import { ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { CreateStaffButton } from './create-staff-dialog';
import { ReferrerField } from './referrer-field';

const ClientRows = bodyWithRowTestId('clients-row');

function useClientFilters() {
  const statusChoices = useEnumChoices('userStatus', USER_STATUSES);
  const roleChoices = useEnumChoices('userRole', CUSTOMER_ROLES);
  return [
    <SearchInput
      key="keyWord"
      source="keyWord"
      alwaysOn
      slotProps={{ htmlInput: { maxLength: LIMITS.keywordMaxLength, 'data-testid': 'clients-search' } }}
    />,
    <SelectArrayInput key="statuses" source="statuses" choices={statusChoices} translateChoice={false} />,
    <SelectArrayInput key="roles" source="roles" choices={roleChoices} translateChoice={false} />,
    <DateInput key="registrationDateFrom" source="registrationDateFrom" />,
    <DateInput key="registrationDateTo" source="registrationDateTo" />,
  ];
}

/** A client on a phone: name and status first, then the e-mail, the balance and when they registered. */
function ClientCards() {
  return (
    <SimpleList<User & RaRecord>
      linkType="show"
      primaryText={(record) => (
        <CardLine testId="clients-card" end={<EnumField source="status" enumName="userStatus" chip />}>
          {record.fullName || <Ltr>{record.email}</Ltr>}
        </CardLine>
      )}
      secondaryText={(record) => (
        <>
          <Ltr>{record.email}</Ltr>
          <br />
          <Money amount={record.balance} testId="clients-card-balance" />
          <br />
          <DateTimeField source="userCreatedAt" />
        </>
      )}
    />
  );
}

export function ClientList() {
  const { inline, drawer } = useResponsiveFilters(useClientFilters());
  const phone = useIsPhone();
  return (
    <List
      filters={inline}
      actions={
        <ResponsiveListActions drawer={drawer}>
          <CreateStaffButton />
        </ResponsiveListActions>
      }
      sort={{ field: 'userCreatedAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      {phone ? (
        <ClientCards />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} body={ClientRows}>
          <DataTable.Col source="fullName" />
          <DataTable.Col source="email">
            <Ltr>
              <TextField source="email" />
            </Ltr>
          </DataTable.Col>
          <DataTable.Col source="profileId" disableSort>
            <Ltr>
              <TextField source="profileId" />
            </Ltr>
          </DataTable.Col>
          <DataTable.Col source="role">
            <EnumField source="role" enumName="userRole" />
          </DataTable.Col>
          <DataTable.Col source="status">
            <EnumField source="status" enumName="userStatus" chip />
          </DataTable.Col>
          {/* Sorted by the server over every client (ADR 0078), not within the page. */}
          <DataTable.Col source="balance">
            <MoneyField source="balance" testId="clients-balance" />
          </DataTable.Col>
          <DataTable.Col source="referrer" disableSort>
            <ReferrerField />
          </DataTable.Col>
          <DataTable.Col source="userCreatedAt">
            <DateTimeField source="userCreatedAt" />
          </DataTable.Col>
        </DataTable>
      )}
    </List>
  );
}
