import { type AuditLog } from '@kupa/proto';
import { Box, Typography } from '@mui/material';
import { FunctionField, Show, SimpleShowLayout, TextField, useTranslate } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { ChangesTable } from './changes-table';

function ChangesSection() {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
        {translate('kupa.activity_log.changes')}
      </Typography>
      <ChangesTable />
    </Box>
  );
}

export function ActivityLogShow() {
  return (
    <Show actions={false}>
      <SimpleShowLayout>
        <FunctionField source="id" render={(entry: AuditLog) => <Ltr>{entry.id}</Ltr>} />
        <DateTimeField source="createdAt" />
        <TextField source="createdBy.name" />
        <EnumField source="operationType" enumName="auditOperationType" chip />
        <EnumField source="target.type" enumName="auditTargetType" />
        <FunctionField source="target.id" render={(entry: AuditLog) => <Ltr>{entry.target?.id}</Ltr>} />
        <EnumField source="parent.type" enumName="auditTargetType" emptyText="—" />
        <FunctionField
          source="parent.id"
          render={(entry: AuditLog) => (entry.parent ? <Ltr>{entry.parent.id}</Ltr> : '—')}
        />
        <TextField source="eventType" />
        <ChangesSection />
      </SimpleShowLayout>
    </Show>
  );
}
