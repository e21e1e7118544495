import { type AuditChange, auditFieldLabel, type AuditLog, formatAuditValue } from '@kupa/proto';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { useIsPhone } from '../shared/responsive';
import { useLang } from '../shared/use-lang';
import { Segment } from './audit-text';

/**
 * Values wrap between words; a single word breaks only when it is longer than the whole line it has (a long id or
 * e-mail). `overflow-wrap: break-word`, unlike the old `word-break: break-word`, leaves the words' widths in the
 * table's column sizing, so a column is never squeezed until "(empty)" or a login splits in the middle.
 */
const VALUE = { overflowWrap: 'break-word', wordBreak: 'normal', minWidth: 0 } as const;

/**
 * On a wide screen a fixed layout (a quarter for the field, the rest shared by before and after) keeps one long value
 * from pushing the table past the page; it then wraps inside its own column.
 */
const FIXED_TABLE = { tableLayout: 'fixed', width: '100%' } as const;

type Entry = AuditLog & { id: string };

/**
 * On a phone three columns leave each value a third of 390 px, too narrow for a login or an e-mail: each change is a
 * block instead, the field's label over its before and after, each value on the full width.
 */
function ChangeBlocks({ record, changes }: { record: Entry; changes: AuditChange[] }) {
  const translate = useTranslate();
  const lang = useLang();
  const value = (label: string, testId: string, recorded: unknown, field: string) => (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
      <Typography variant="caption" color="text.secondary" sx={{ flex: '0 0 4.5rem' }}>
        {label}
      </Typography>
      <Typography variant="body2" component="span" data-testid={testId} sx={{ ...VALUE, flex: 1 }}>
        <Segment segment={formatAuditValue(record.target, field, recorded, lang)} />
      </Typography>
    </Box>
  );
  return (
    <Box
      component="ul"
      data-testid="activity-log-changes"
      aria-label={translate('kupa.activity_log.changes')}
      sx={{ listStyle: 'none', m: 0, p: 0 }}
    >
      {changes.map((change) => (
        <Box
          component="li"
          key={change.field}
          data-testid="activity-log-change"
          data-field={change.field}
          sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography variant="subtitle2" component="p" sx={VALUE}>
            {auditFieldLabel(record.target, change.field, lang)}
          </Typography>
          {value(translate('kupa.activity_log.before'), 'change-before', change.oldValue, change.field)}
          {value(translate('kupa.activity_log.after'), 'change-after', change.newValue, change.field)}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The field-level before/after of one activity-log entry, in the page language: fields by their labels, values as
 * enum labels, amounts, dates, yes or no (proto/src/audit-sentence.ts). Values of fields the shared mapping does not
 * know are shown as recorded (objects as JSON), so nothing is hidden from an auditor; the raw field name stays in
 * `data-field`.
 */
export function ChangesTable() {
  const record = useRecordContext<Entry>();
  const translate = useTranslate();
  const lang = useLang();
  const phone = useIsPhone();
  const changes: AuditChange[] = record?.changes ?? [];
  if (!record || changes.length === 0) {
    return <Typography color="text.secondary">{translate('kupa.activity_log.no_changes')}</Typography>;
  }
  if (phone) return <ChangeBlocks record={record} changes={changes} />;
  return (
    <Table
      size="small"
      data-testid="activity-log-changes"
      aria-label={translate('kupa.activity_log.changes')}
      sx={FIXED_TABLE}
    >
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '24%' }}>{translate('kupa.activity_log.field')}</TableCell>
          <TableCell>{translate('kupa.activity_log.before')}</TableCell>
          <TableCell>{translate('kupa.activity_log.after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.field} data-testid="activity-log-change" data-field={change.field}>
            <TableCell sx={VALUE}>{auditFieldLabel(record.target, change.field, lang)}</TableCell>
            <TableCell data-testid="change-before" sx={VALUE}>
              <Segment segment={formatAuditValue(record.target, change.field, change.oldValue, lang)} />
            </TableCell>
            <TableCell data-testid="change-after" sx={VALUE}>
              <Segment segment={formatAuditValue(record.target, change.field, change.newValue, lang)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
