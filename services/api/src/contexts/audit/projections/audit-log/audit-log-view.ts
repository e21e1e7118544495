import type { AuditChange, AuditLog, AuditOperationType, AuditRef, AuditTargetType } from '@kupa/proto';
import type { DataSource } from 'typeorm';
import type { AuditNameRegistry, RecordedNameReader, StoredRef } from '../../audit-names';

/** One activity-log entry as read: a row of `audit_logs` (written only by the audit projection) under camel-case names. */
export interface AuditLogView {
  id: string;
  createdAt: Date;
  createdById: string;
  createdByName: string;
  operationType: AuditOperationType;
  targetType: AuditTargetType;
  targetId: string;
  parentType: AuditTargetType | null;
  parentId: string | null;
  changes: AuditChange[];
  eventType: string;
  streamId: string;
  /** bigint as a decimal string, as the event store reports it. */
  globalPosition: string;
}

/** The columns of `audit_logs a` under `AuditLogView`'s names, for the queries that read whole entries. */
export const AUDIT_LOG_COLUMNS = [
  'a.id AS "id"',
  'a.created_at AS "createdAt"',
  'a.created_by_id AS "createdById"',
  'a.created_by_name AS "createdByName"',
  'a.operation_type AS "operationType"',
  'a.target_type AS "targetType"',
  'a.target_id AS "targetId"',
  'a.parent_type AS "parentType"',
  'a.parent_id AS "parentId"',
  'a.changes AS "changes"',
  'a.event_type AS "eventType"',
  'a.stream_id AS "streamId"',
  'a.global_position::text AS "globalPosition"',
].join(', ');

function parentOf(view: AuditLogView): StoredRef | null {
  return view.parentType && view.parentId ? { type: view.parentType, id: view.parentId } : null;
}

/**
 * The last non-empty string each target's entries recorded for `field`, newest entry first (the `target_id` index
 * finds them). A DELETED entry records every value ending in null, so it never hides the name before it.
 */
export function recordedNamesFrom(dataSource: DataSource): RecordedNameReader {
  return async (type, field, ids) => {
    const rows: Array<{ id: string; name: string }> = await dataSource.query(
      `SELECT DISTINCT ON (a.target_id) a.target_id AS id, change->>'newValue' AS name
         FROM audit_logs a CROSS JOIN LATERAL jsonb_array_elements(a.changes) change
        WHERE a.target_id = ANY($1::text[]) AND a.target_type = $2 AND change->>'field' = $3
          AND jsonb_typeof(change->'newValue') = 'string' AND change->>'newValue' <> ''
        ORDER BY a.target_id, a.global_position DESC`,
      [ids, type, field],
    );
    return new Map(rows.map((row) => [row.id, row.name]));
  };
}

/**
 * Entries as answered, their targets and parents named through the registry with one read per namer, and what no
 * namer answers for by the names the log itself recorded.
 */
export async function toAuditLogs(
  views: readonly AuditLogView[],
  names: AuditNameRegistry,
  dataSource: DataSource,
): Promise<AuditLog[]> {
  const refs: StoredRef[] = views.flatMap((view) => {
    const parent = parentOf(view);
    const target = { type: view.targetType, id: view.targetId };
    return parent ? [target, parent] : [target];
  });
  const named: (ref: StoredRef) => AuditRef = await names.name(refs, recordedNamesFrom(dataSource));
  return views.map((view) => {
    const parent = parentOf(view);
    return {
      id: view.id,
      createdAt: view.createdAt.toISOString(),
      createdBy: { id: view.createdById, name: view.createdByName },
      operationType: view.operationType,
      target: named({ type: view.targetType, id: view.targetId }),
      parent: parent ? named(parent) : null,
      changes: view.changes,
      eventType: view.eventType,
    };
  });
}
