import { type AuditChange, auditFieldLabel, type AuditLog, formatAuditValue } from '@kupa/proto';
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { useLang } from '../shared/use-lang';
import { Segment } from './audit-text';

/**
 * The field-level before/after of one activity-log entry, in the page language: fields by their labels, values as
 * enum labels, amounts, dates, yes or no (proto/src/audit-sentence.ts). Values of fields the shared mapping does not
 * know are shown as recorded (objects as JSON), so nothing is hidden from an auditor; the raw field name stays in
 * `data-field`.
 */
/**
 * Long values may break anywhere, but a value column keeps room for a short word such as "(empty)": without a
 * minimum, a table on a phone squeezes it until the word splits inside its parentheses.
 */
const VALUE_CELL = { wordBreak: 'break-word', minWidth: '7ch' } as const;

export function ChangesTable() {
  const record = useRecordContext<AuditLog & { id: string }>();
  const translate = useTranslate();
  const lang = useLang();
  const changes: AuditChange[] = record?.changes ?? [];
  if (!record || changes.length === 0) {
    return <Typography color="text.secondary">{translate('kupa.activity_log.no_changes')}</Typography>;
  }
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
            <TableCell>{auditFieldLabel(record.target, change.field, lang)}</TableCell>
            <TableCell data-testid="change-before" sx={VALUE_CELL}>
              <Segment segment={formatAuditValue(record.target, change.field, change.oldValue, lang)} />
            </TableCell>
            <TableCell data-testid="change-after" sx={VALUE_CELL}>
              <Segment segment={formatAuditValue(record.target, change.field, change.newValue, lang)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
