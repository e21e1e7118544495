import type { AuditChange, AuditLog, AuditOperationType, AuditTargetType } from '@kupa/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One activity-log entry: a row of `audit_logs`, written only by the audit projection. */
@Entity({ name: 'audit_logs' })
export class AuditLogView {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'created_by_id', type: 'text' })
  createdById: string;

  @Column({ name: 'created_by_name', type: 'text' })
  createdByName: string;

  @Column({ name: 'operation_type', type: 'text' })
  operationType: AuditOperationType;

  @Column({ name: 'target_type', type: 'text' })
  targetType: AuditTargetType;

  @Column({ name: 'target_id', type: 'text' })
  targetId: string;

  @Column({ name: 'parent_type', type: 'text', nullable: true })
  parentType: AuditTargetType | null;

  @Column({ name: 'parent_id', type: 'text', nullable: true })
  parentId: string | null;

  @Column({ type: 'jsonb' })
  changes: AuditChange[];

  @Column({ name: 'event_type', type: 'text' })
  eventType: string;

  @Column({ name: 'stream_id', type: 'text' })
  streamId: string;

  /** bigint as a decimal string, as the event store reports it. */
  @Column({ name: 'global_position', type: 'bigint' })
  globalPosition: string;
}

/** The last known field values of one target, which the next entry's before/after changes are diffed against. */
@Entity({ name: 'audit_target_states' })
export class AuditTargetStateRecord {
  @PrimaryColumn({ name: 'target_kind', type: 'text' })
  targetKind: string;

  @PrimaryColumn({ name: 'target_id', type: 'text' })
  targetId: string;

  @Column({ type: 'jsonb' })
  fields: Record<string, unknown>;
}

/** The columns of `audit_logs a` under the entity's property names, for raw queries that read whole entries. */
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
