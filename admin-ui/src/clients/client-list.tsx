import { CUSTOMER_ROLES, LIMITS, USER_STATUSES } from '@kupa/proto';
import {
  DataTable,
  DateInput,
  FilterButton,
  List,
  SearchInput,
  SelectArrayInput,
  TextField,
  TopToolbar,
} from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { ListPagination } from '../shared/list-pagination';
import { CreateStaffButton } from './create-staff-dialog';

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

/** The list's toolbar: the filters, and for admins the way to open a staff account. */
function ClientListActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <CreateStaffButton />
    </TopToolbar>
  );
}

export function ClientList() {
  const filters = useClientFilters();
  return (
    <List
      filters={filters}
      actions={<ClientListActions />}
      sort={{ field: 'userCreatedAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
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
        <DataTable.Col source="userCreatedAt">
          <DateTimeField source="userCreatedAt" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
}
