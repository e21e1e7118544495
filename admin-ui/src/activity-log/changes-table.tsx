import { type AuditChange, type AuditLog } from '@kupa/proto';
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';

/** Values arrive as any JSON; objects are shown as compact JSON so nothing is hidden from an auditor. */
function formatValue(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The field-level before/after of one activity-log entry. */
export function ChangesTable() {
  const record = useRecordContext<AuditLog & { id: string }>();
  const translate = useTranslate();
  const changes: AuditChange[] = record?.changes ?? [];
  if (changes.length === 0) {
    return <Typography color="text.secondary">{translate('kupa.activity_log.no_changes')}</Typography>;
  }
  const empty = translate('kupa.activity_log.empty_value');
  return (
    <Table size="small" data-testid="activity-log-changes" aria-label={translate('kupa.activity_log.changes')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('kupa.activity_log.field')}</TableCell>
          <TableCell>{translate('kupa.activity_log.before')}</TableCell>
          <TableCell>{translate('kupa.activity_log.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.field} data-testid="activity-log-change" data-field={change.field}>
            <TableCell>
              <bdi dir="ltr">{change.field}</bdi>
            </TableCell>
            <TableCell data-testid="change-before" dir="auto" sx={{ wordBreak: 'break-word' }}>
              {formatValue(change.oldValue, empty)}
            </TableCell>
            <TableCell data-testid="change-after" dir="auto" sx={{ wordBreak: 'break-word' }}>
              {formatValue(change.newValue, empty)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
