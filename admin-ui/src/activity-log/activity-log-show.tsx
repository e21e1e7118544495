import { type AuditLog, auditRefSegments, auditSentence, eventTypeLabel, segmentText } from '@kupa/proto';
import { Box, Typography } from '@mui/material';
import { FunctionField, Show, SimpleShowLayout, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField } from '../shared/date-time-field';
import { EnumField } from '../shared/enum-field';
import { Ltr } from '../shared/ltr';
import { useLang } from '../shared/use-lang';
import { AuditActor, AuditRefLink, AuditSentence } from './audit-text';
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

/** One line that ends in an ellipsis inside the app bar's title, never running on under the bar's buttons. */
const TITLE_LINE = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/**
 * The app bar's title: what happened and to what ("Cashier report · Payment #42"), as plain text (the app bar holds
 * no links). The whole sentence is the page's heading, which wraps; in the one-line app bar it was cut wherever the
 * width ran out, mid-amount on a phone. What is left may still end in an ellipsis, but never inside an amount; the
 * whole sentence is the title's tooltip (docs/adr/0077-details-people-can-read.md).
 */
function ActivityLogTitle() {
  const entry = useRecordContext<AuditLog & { id: string }>();
  const lang = useLang();
  const translate = useTranslate();
  if (!entry) return <span>{translate('resources.activity-log.name', { smart_count: 1 })}</span>;
  const target = auditRefSegments(entry.target, lang).map(segmentText).join('');
  return (
    <Box component="span" title={auditSentence(entry, lang)} data-testid="activity-log-title" sx={TITLE_LINE}>
      {`${eventTypeLabel(entry.eventType, lang)} · ${target}`}
    </Box>
  );
}

/** The entry's sentence as the page's heading, with its target and parent as links. */
function SentenceHeading() {
  const entry = useRecordContext<AuditLog & { id: string }>();
  if (!entry) return null;
  return (
    <Typography variant="h6" component="h1" data-testid="activity-log-heading">
      <AuditSentence entry={entry} />
    </Typography>
  );
}

export function ActivityLogShow() {
  const lang = useLang();
  return (
    <Show actions={false} title={<ActivityLogTitle />}>
      <SimpleShowLayout>
        <SentenceHeading />
        <DateTimeField source="createdAt" />
        <FunctionField<AuditLog> source="createdBy.name" render={(entry) => <AuditActor entry={entry} />} />
        <EnumField source="operationType" enumName="auditOperationType" chip />
        <FunctionField<AuditLog>
          source="eventType"
          render={(entry) => <span data-event-type={entry.eventType}>{eventTypeLabel(entry.eventType, lang)}</span>}
        />
        <EnumField source="target.type" enumName="auditTargetType" />
        <FunctionField<AuditLog>
          source="target.id"
          label="resources.activity-log.fields.target.name"
          render={(entry) => <AuditRefLink value={entry.target} testId="activity-log-target-field" />}
        />
        <EnumField source="parent.type" enumName="auditTargetType" emptyText="—" />
        <FunctionField<AuditLog>
          source="parent.id"
          label="resources.activity-log.fields.parent.name"
          render={(entry) =>
            entry.parent ? <AuditRefLink value={entry.parent} testId="activity-log-parent-field" /> : '—'
          }
        />
        <FunctionField<AuditLog> source="id" render={(entry) => <Ltr>{entry.id}</Ltr>} />
        <ChangesSection />
      </SimpleShowLayout>
    </Show>
  );
}
