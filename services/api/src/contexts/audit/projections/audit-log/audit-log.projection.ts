import {
  type AuditChange,
  type AuditTargetType,
  type EventMetadata,
  SYSTEM_ACTOR_ID,
  SYSTEM_ACTOR_NAME,
} from '@kupa/proto';
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type {
  CommittedEvent,
  InlineProjection,
  RecordedEvent,
} from '../../../../platform/event-store/event-store.port';
import { type Processor, projectionEvents } from '../../../../platform/projections';
import { RebuildMemory } from '../../../../platform/event-store/rebuild-memory';
import type { AuditEntryDraft, AuditMapperRegistry } from '../../audit-mapper';
import { diffFields, type FieldValues } from './field-changes';
import { describeUnmappedEvent } from './unmapped-event';

export const AUDIT_LOG_PROJECTION_NAME = 'audit-log';

/**
 * Admins, managers and clients are one person whose target type follows their role, so they share one known state:
 * a role change then shows the old role rather than starting a fresh target.
 */
const PERSON_TARGET_TYPES: ReadonlySet<AuditTargetType> = new Set(['ADMIN', 'MANAGER', 'CLIENT']);
const PERSON_TARGET_KIND = 'USER';

/** RFC 4122 name-based (v5) namespace for entry ids, fixed so that a rebuild gives every entry its old id. */
const ENTRY_ID_NAMESPACE = Buffer.from('6f1d3c0a5b8e4f27a9d2c4e1b7f05a13', 'hex');

interface PendingEntry {
  event: RecordedEvent;
  index: number;
  draft: AuditEntryDraft;
}

/** Rows per statement when a rebuild writes the target states it kept. */
const REBUILD_WRITE_CHUNK_ROWS = 5000;

/** A rebuild's known states by target (`keyString`), and the targets it has seen. */
interface KeptStates {
  states: Map<string, FieldValues | null>;
  keys: Map<string, TargetKey>;
}

interface TargetKey {
  kind: string;
  id: string;
}

function targetKeyOf(draft: AuditEntryDraft): TargetKey {
  return {
    kind: PERSON_TARGET_TYPES.has(draft.targetType) ? PERSON_TARGET_KIND : draft.targetType,
    id: draft.targetId,
  };
}

function keyString(key: TargetKey): string {
  return JSON.stringify([key.kind, key.id]);
}

/** Stable per event and entry: the same event replayed yields the same id, so links to an entry survive rebuilds. */
export function auditEntryId(event: RecordedEvent, index: number): string {
  const digest = createHash('sha1')
    .update(ENTRY_ID_NAMESPACE)
    .update(`${event.streamId}/${event.streamVersion}/${index}`)
    .digest();
  digest[6] = (digest[6] & 0x0f) | 0x50;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Events made by the system (schedulers, webhooks, bootstrap) carry the SYSTEM actor or none at all. */
function creatorOf(metadata: EventMetadata | undefined): { id: string; name: string } {
  const actor = metadata?.actor;
  if (!actor?.id || actor.id === SYSTEM_ACTOR_ID) return { id: SYSTEM_ACTOR_ID, name: SYSTEM_ACTOR_NAME };
  return { id: actor.id, name: actor.name || actor.email || actor.id };
}

/**
 * The activity log (docs/product.md, Audit): every event becomes one or more entries with field-level before/after
 * changes. Contexts describe their events through the mapper registry; the rest are described from their stream and
 * payload. It is kept after the commit by its processor (`AuditLogProcessor`, docs/adr/0126), which applies a batch
 * of events with one read of the touched targets' states and one write statement; rebuild and the replay check use
 * it as any inline projection.
 */
export class AuditLogProjection implements InlineProjection {
  readonly name = AUDIT_LOG_PROJECTION_NAME;
  readonly handles = '*' as const;
  readonly keptByProcessor = AUDIT_LOG_PROJECTION_NAME;
  readonly tables = ['audit_logs', 'audit_target_states'];
  readonly replayChecked = [
    { table: 'audit_logs', key: ['id'] },
    { table: 'audit_target_states', key: ['target_kind', 'target_id'] },
  ];

  /**
   * Every target's known state while a rebuild or a replay check runs (see `InlineProjection.beginRebuild`): read and
   * written once instead of locked, read and rewritten in every batch.
   */
  private readonly rebuilding = new RebuildMemory<KeptStates>();

  constructor(private readonly mappers: AuditMapperRegistry) {}

  /** The types the contexts keep out of the log (`keptOutOfTheLog`): a replay of the log need not decode them. */
  get ignores(): readonly string[] {
    return this.mappers.typesKeptOut();
  }

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const pending = this.draftsOf(events);
    if (pending.length === 0) return;
    const keys = new Map<string, TargetKey>();
    for (const { draft } of pending) {
      const key = targetKeyOf(draft);
      keys.set(keyString(key), key);
    }
    const kept = this.rebuilding.of(manager);
    const states = kept?.states ?? (await this.loadStates(manager, [...keys.values()]));
    if (kept) for (const [name, key] of keys) kept.keys.set(name, key);

    const entries = pending.map(({ event, index, draft }) => {
      const key = keyString(targetKeyOf(draft));
      const { changes, after } = diffFields(draft.operationType, states.get(key) ?? null, draft.fields);
      states.set(key, after);
      return { event, index, draft, changes };
    });
    // While rebuilding, only the entries are written now; the states once, at the end.
    await this.write(manager, entries, kept ? new Map() : keys, states);
  }

  beginRebuild(manager: EntityManager): void {
    this.rebuilding.begin(manager, { states: new Map(), keys: new Map() });
  }

  /** Every surviving target's state, written once (in chunks) at the end of a rebuild. */
  async endRebuild(manager: EntityManager, write: boolean): Promise<void> {
    const kept = this.rebuilding.end(manager);
    if (!write || !kept) return;
    const surviving: Array<{ key: TargetKey; fields: FieldValues }> = [];
    for (const [name, key] of kept.keys) {
      const fields = kept.states.get(name) ?? null;
      if (fields) surviving.push({ key, fields });
    }
    for (let start = 0; start < surviving.length; start += REBUILD_WRITE_CHUNK_ROWS) {
      const chunk = surviving.slice(start, start + REBUILD_WRITE_CHUNK_ROWS);
      await manager.query(
        `INSERT INTO audit_target_states (target_kind, target_id, fields)
         SELECT kind, id, fields FROM json_to_recordset($1::json) AS target(kind text, id text, fields jsonb)`,
        [JSON.stringify(chunk.map(({ key, fields }) => ({ kind: key.kind, id: key.id, fields })))],
      );
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE audit_logs, audit_target_states');
  }

  private draftsOf(events: readonly RecordedEvent[]): PendingEntry[] {
    const pending: PendingEntry[] = [];
    for (const event of events) {
      const mapper = this.mappers.mapperFor(event.type);
      // A mapper answers null for an event it deliberately keeps out of the log.
      const mapped = mapper ? mapper(event) : describeUnmappedEvent(event);
      if (mapped === null) continue;
      (Array.isArray(mapped) ? mapped : [mapped]).forEach((draft, index) => pending.push({ event, index, draft }));
    }
    return pending;
  }

  /**
   * Locks the known states it reads, in key order, so that two appends touching one target (from different streams)
   * diff one after the other instead of both against the same old state.
   */
  private async loadStates(manager: EntityManager, keys: TargetKey[]): Promise<Map<string, FieldValues | null>> {
    const rows: Array<{ target_kind: string; target_id: string; fields: FieldValues }> = await manager.query(
      `SELECT target_kind, target_id, fields FROM audit_target_states
       WHERE (target_kind, target_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
       ORDER BY target_kind, target_id FOR UPDATE`,
      [keys.map((key) => key.kind), keys.map((key) => key.id)],
    );
    return new Map(rows.map((row) => [keyString({ kind: row.target_kind, id: row.target_id }), row.fields]));
  }

  private async write(
    manager: EntityManager,
    entries: Array<PendingEntry & { changes: AuditChange[] }>,
    keys: Map<string, TargetKey>,
    states: Map<string, FieldValues | null>,
  ): Promise<void> {
    const kept: Array<{ key: TargetKey; fields: FieldValues }> = [];
    const deleted: TargetKey[] = [];
    // States are written in one fixed order, so that two appends creating the same new targets cannot deadlock.
    const ordered = [...keys].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    for (const [name, key] of ordered) {
      const fields = states.get(name) ?? null;
      if (fields) kept.push({ key, fields });
      else deleted.push(key);
    }
    // One statement for the whole append: the entries, the surviving states and the deleted targets' states. The
    // rows travel as three JSON documents, which PostgreSQL reads in one pass: as arrays of jsonb, each entry's
    // changes would be a JSON string escaped again inside an array literal, the costliest part of a rebuild's write.
    await manager.query(
      `WITH entries AS (
         INSERT INTO audit_logs (id, created_at, created_by_id, created_by_name, operation_type, target_type, target_id,
           parent_type, parent_id, changes, event_type, stream_id, global_position, correlation_id)
         SELECT id, created_at, created_by_id, created_by_name, operation_type, target_type, target_id, parent_type,
           parent_id, changes, event_type, stream_id, global_position, correlation_id
           FROM json_to_recordset($1::json) AS entry(id uuid, created_at timestamptz, created_by_id text,
             created_by_name text, operation_type text, target_type text, target_id text, parent_type text,
             parent_id text, changes jsonb, event_type text, stream_id text, global_position bigint,
             correlation_id text)
         -- An entry already there came from a process still writing the log in the append (a rolling upgrade):
         -- the same event gives the same id, so it is this entry.
         ON CONFLICT (id) DO NOTHING
         RETURNING 1
       ), gone AS (
         DELETE FROM audit_target_states
         WHERE (target_kind, target_id) IN (SELECT kind, id FROM json_to_recordset($2::json) AS target(kind text, id text))
         RETURNING 1
       )
       INSERT INTO audit_target_states (target_kind, target_id, fields)
       SELECT kind, id, fields FROM json_to_recordset($3::json) AS target(kind text, id text, fields jsonb)
       ON CONFLICT (target_kind, target_id) DO UPDATE SET fields = EXCLUDED.fields`,
      [
        JSON.stringify(
          entries.map(({ event, index, draft, changes }) => {
            const creator = creatorOf(event.metadata);
            return {
              id: auditEntryId(event, index),
              created_at: event.metadata?.occurredAt ?? event.recordedAt,
              created_by_id: creator.id,
              created_by_name: creator.name,
              operation_type: draft.operationType,
              target_type: draft.targetType,
              target_id: draft.targetId,
              parent_type: draft.parent?.type ?? null,
              parent_id: draft.parent?.id ?? null,
              changes,
              event_type: event.type,
              stream_id: event.streamId,
              global_position: event.globalPosition,
              correlation_id: event.metadata?.correlationId ?? null,
            };
          }),
        ),
        JSON.stringify(deleted),
        JSON.stringify(kept.map(({ key, fields }) => ({ kind: key.kind, id: key.id, fields }))),
      ],
    );
  }
}

/**
 * How soon the processor looks again for events committed in another process (an API process beside the worker):
 * a read of the log waits for it (`AuditLogCatchUp`), and at the runner's 500 ms staff waited about a quarter of a
 * second for every read while others were writing (docs/benchmarks.md, "The activity log after the commit"). Two
 * short statements per look when idle.
 */
export const AUDIT_LOG_IDLE_POLL_INTERVAL_MS = 50;

/**
 * Keeps the activity log after the commit (docs/adr/0126): the events of a batch, in commit order, through the
 * projection, with the checkpoint in the same transaction. One leader per checkpoint writes the states, so each entry's
 * "before" is its target's state after the entries committed ahead of it.
 */
export class AuditLogProcessor implements Processor {
  readonly name = AUDIT_LOG_PROJECTION_NAME;
  readonly handles = '*' as const;
  readonly idlePollIntervalMs = AUDIT_LOG_IDLE_POLL_INTERVAL_MS;

  constructor(private readonly projection: AuditLogProjection) {}

  async handle(events: readonly CommittedEvent[], manager: EntityManager): Promise<void> {
    const handled = projectionEvents(this.projection, events);
    if (handled.length > 0) await this.projection.apply(handled, manager);
  }
}
