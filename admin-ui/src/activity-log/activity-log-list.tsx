import { AUDIT_OPERATION_TYPES, AUDIT_TARGET_TYPES, type AuditLog, LIMITS } from '@kupa/proto';
import {
  DataTable,
  DateInput,
  FunctionField,
  Link,
  List,
  type RaRecord,
  SelectArrayInput,
  SimpleList,
  TextInput,
  useCreatePath,
} from 'react-admin';
import { CardLine } from '../shared/card-line';
import { DateTimeField } from '../shared/date-time-field';
import { useEnumChoices } from '../shared/enum-choices';
import { EnumField } from '../shared/enum-field';
import { bodyWithRowTestId } from '../shared/test-id-rows';
import { ListPagination } from '../shared/list-pagination';
import { ResponsiveListActions, useIsPhone, useResponsiveFilters } from '../shared/responsive';
import { AuditActor, AuditSentence } from './audit-text';

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

/** An entry on a phone: when and what kind of change first, then what happened in words and who did it. */
function ActivityLogCards() {
  const createPath = useCreatePath();
  return (
    // The sentence and the author are links of their own, so the card is not one link: its time opens the entry.
    <SimpleList<AuditLog & RaRecord>
      linkType={false}
      primaryText={(record) => (
        <CardLine
          testId="activity-log-card"
          end={<EnumField source="operationType" enumName="auditOperationType" chip />}
        >
          <Link to={createPath({ resource: 'activity-log', id: record.id, type: 'show' })}>
            <DateTimeField source="createdAt" />
          </Link>
        </CardLine>
      )}
      secondaryText={(record) => (
        <>
          <AuditSentence entry={record} />
          <br />
          <AuditActor entry={record} />
        </>
      )}
    />
  );
}

export function ActivityLogList() {
  const { inline, drawer } = useResponsiveFilters(useActivityLogFilters());
  const phone = useIsPhone();
  return (
    <List
      filters={inline}
      actions={<ResponsiveListActions drawer={drawer} />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={LIMITS.pageSizeDefault}
      pagination={<ListPagination />}
      exporter={false}
    >
      {phone ? (
        <ActivityLogCards />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} body={ActivityLogRows}>
          <DataTable.Col source="createdAt">
            <DateTimeField source="createdAt" />
          </DataTable.Col>
          {/* The API offers no sort by author (its sort ids are createdAt, operationType and targetType). */}
          <DataTable.Col source="createdBy.name" disableSort>
            <FunctionField<AuditLog> source="createdBy.name" render={(entry) => <AuditActor entry={entry} />} />
          </DataTable.Col>
          <DataTable.Col source="operationType">
            <EnumField source="operationType" enumName="auditOperationType" chip />
          </DataTable.Col>
          {/* Sorted as the API's `targetType`: the data provider maps the field (see RESOURCE_APIS). */}
          <DataTable.Col source="target.type">
            <EnumField source="target.type" enumName="auditTargetType" />
          </DataTable.Col>
          {/* What happened, in words, naming the target and parent as links (the API cannot sort by it). */}
          <DataTable.Col source="sentence" disableSort>
            <FunctionField<AuditLog> source="sentence" render={(entry) => <AuditSentence entry={entry} />} />
          </DataTable.Col>
        </DataTable>
      )}
    </List>
  );
}
