import type { AuditChange, AuditLog, AuditOperationType, AuditTargetType } from '@kupa/proto';

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

export function toAuditLog(view: AuditLogView): AuditLog {
  return {
    id: view.id,
    createdAt: view.createdAt.toISOString(),
    createdBy: { id: view.createdById, name: view.createdByName },
    operationType: view.operationType,
    target: { type: view.targetType, id: view.targetId },
    parent: view.parentType && view.parentId ? { type: view.parentType, id: view.parentId } : null,
    changes: view.changes,
    eventType: view.eventType,
  };
}
