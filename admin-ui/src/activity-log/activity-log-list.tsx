import { AUDIT_OPERATION_TYPES, AUDIT_TARGET_TYPES, LIMITS } from '@kupa/proto';
import { DataTable, DateInput, List, SelectArrayInput, TextField, TextInput } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { ListPagination } from '../shared/list-pagination';

const ActivityLogRows = bodyWithRowTestId('activity-log-row');

function useActivityLogFilters() {
  const targetChoices = useEnumChoices('auditTargetType', AUDIT_TARGET_TYPES);
  const operationChoices = useEnumChoices('auditOperationType', AUDIT_OPERATION_TYPES);
  return [
    <DateInput key="createdAtFrom" source="createdAtFrom" alwaysOn />,
    <DateInput key="createdAtTo" source="createdAtTo" alwaysOn />,
    <SelectArrayInput
      key="targetAndParentTypes"
      source="targetAndParentTypes"
      choices={targetChoices}
      translateChoice={false}
    />,
    // IDs are typed as free text, separated by commas or spaces; the data provider splits them into a list.
    <TextInput
      key="targetAndParentIds"
      source="targetAndParentIds"
      slotProps={{ htmlInput: { dir: 'ltr', 'data-testid': 'activity-log-ids' } }}
    />,
    <SelectArrayInput
      key="operationTypes"
      source="operationTypes"
      choices={operationChoices}
      translateChoice={false}
    />,
  ];
}

export function ActivityLogList() {
  const filters = useActivityLogFilters();
  return (
    <List
      filters={filters}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      <DataTable rowClick="show" bulkActionButtons={false} body={ActivityLogRows}>
        <DataTable.Col source="createdAt">
          <DateTimeField source="createdAt" />
        </DataTable.Col>
        {/* The API offers no sort by author (its sort ids are createdAt, operationType and targetType). */}
        <DataTable.Col source="createdBy.name" disableSort />
        <DataTable.Col source="operationType">
          <EnumField source="operationType" enumName="auditOperationType" chip />
        </DataTable.Col>
        {/* Sorted as the API's `targetType`: the data provider maps the field (see RESOURCE_APIS). */}
        <DataTable.Col source="target.type">
          <EnumField source="target.type" enumName="auditTargetType" />
        </DataTable.Col>
        <DataTable.Col source="target.id" disableSort>
          <Ltr>
            <TextField source="target.id" />
          </Ltr>
        </DataTable.Col>
        <DataTable.Col source="eventType" disableSort />
      </DataTable>
    </List>
  );
}
