import { escapeIdentifier } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import {
  COMMIT_HOLDS_EVENT,
  commitWindow,
  EVENT_COLUMNS,
  type EventRow,
  toRecordedEvent,
  WANTED_EVENT_COLUMNS,
  type WantedEventRow,
} from '../event-store/event-rows';
import type { InlineProjection, RecordedEvent } from '../event-store/event-store.port';
import type { EventTypeRegistry } from '../event-store/event-type-registry';
import { createTemporaryCopy, refillFromTemporaryCopy } from './temporary-copies';

/** Events replayed per round trip during a rebuild: large enough to be quick, small enough to bound memory. */
export const REBUILD_BATCH_SIZE = 1000;

export interface RebuildReport {
  projections: string[];
  eventsReplayed: number;
}

/**
 * The inline projections every append runs, in registration order, inside the append's transaction. Contexts
 * register theirs at module init; the store asks which ones handle the events it has just written.
 */
export class InlineProjectionRegistry {
  private readonly projections: InlineProjection[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly eventTypes: EventTypeRegistry,
  ) {}

  register(projection: InlineProjection): void {
    if (this.projections.some((existing) => existing.name === projection.name)) {
      throw new Error(`Inline projection ${projection.name} is registered twice`);
    }
    this.projections.push(projection);
  }

  all(): readonly InlineProjection[] {
    return this.projections;
  }

  get(name: string): InlineProjection {
    const projection = this.projections.find((candidate) => candidate.name === name);
    if (!projection) throw new Error(`No inline projection named ${name}`);
    return projection;
  }

  /** The projections an append applies: all but those a processor keeps after the commit (`keptByProcessor`). */
  appliedByAppends(): readonly InlineProjection[] {
    return this.projections.filter((projection) => projection.keptByProcessor === undefined);
  }

  /**
   * Runs every projection that handles some of `events` with just those events, in registration order; by default
   * those an append applies.
   */
  async apply(
    events: readonly RecordedEvent[],
    manager: EntityManager,
    only: readonly InlineProjection[] = this.appliedByAppends(),
  ): Promise<void> {
    if (events.length === 0) return;
    for (const projection of only) {
      const handled = projectionEvents(projection, events);
      if (handled.length > 0) await projection.apply(handled, manager);
    }
  }

  /**
   * Rebuilds one read model (or all) from every event, beside live appends (docs/adr/0061):
   * 1. In one REPEATABLE READ snapshot, every event it holds is replayed into empty temporary copies of the read
   *    models' tables (`createTemporaryCopy`: the projections' own code writes into them), while commands append and
   *    processors read as usual. The snapshot's newest commit position is noted.
   * 2. Then, in one short transaction holding a SHARE lock on `events` (which waits for appends in flight and holds
   *    new ones back), the events committed since that position are applied to the copies in commit order, and each
   *    table's rows are replaced by its copy's. No append updates a read model half rebuilt, and appends wait only
   *    for the catch-up and the copy, not for the whole replay.
   * Within a stream both orders follow versions: the replay goes by `global_position` (events of a stream are inserted
   * under its row lock), the catch-up by commit position. A projection that names no `tables` cannot be copied and
   * is rebuilt the old way, in one transaction under the lock for its whole length.
   */
  async rebuild(name?: string): Promise<RebuildReport> {
    const selected = name === undefined ? [...this.projections] : [this.get(name)];
    const copyable = selected.every((projection) => (projection.tables?.length ?? 0) > 0);
    const eventsReplayed = copyable ? await this.rebuildBeside(selected) : await this.rebuildUnderLock(selected);
    return { projections: selected.map((projection) => projection.name), eventsReplayed };
  }

  private async rebuildUnderLock(selected: readonly InlineProjection[]): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE events IN SHARE MODE');
      for (const projection of selected) await projection.reset(manager);
      const eventsReplayed = await this.replayKeeping(manager, selected);
      await this.moveProcessorCheckpoints(manager, selected);
      const tables = selected.flatMap((projection) => projection.tables ?? []);
      // In the same transaction, so the rebuilt tables never show their new rows with the old statistics.
      if (tables.length > 0) await manager.query(`ANALYZE ${tables.map(escapeIdentifier).join(', ')}`);
      return eventsReplayed;
    });
  }

  private async rebuildBeside(selected: readonly InlineProjection[]): Promise<number> {
    const tables = selected.flatMap((projection) => projection.tables ?? []);
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const manager = runner.manager;
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const [{ schema }]: Array<{ schema: string }> = await manager.query('SELECT current_schema() AS schema');
      for (const table of tables) await createTemporaryCopy(manager, schema, table, { onCommitDrop: false });
      const searchPath = `SET LOCAL search_path TO pg_temp, ${escapeIdentifier(schema)}`;
      await manager.query(searchPath);
      const [{ head }]: Array<{ head: string }> = await manager.query(
        'SELECT coalesce(max(commit_position), 0)::text AS head FROM event_commits',
      );
      let eventsReplayed = await this.replayKeeping(manager, selected);
      await runner.query('COMMIT');

      await runner.query('BEGIN');
      await manager.query(searchPath);
      await manager.query('LOCK TABLE events IN SHARE MODE');
      eventsReplayed += await this.applyCommittedAfter(manager, selected, head);
      const stored = tables.map((table) => `${escapeIdentifier(schema)}.${escapeIdentifier(table)}`);
      await manager.query(`TRUNCATE ${stored.join(', ')}`);
      for (const table of tables) await refillFromTemporaryCopy(manager, schema, table);
      // After the tables, as a processor's batch takes them (its rows, then its checkpoint): the other order deadlocked
      // with a batch in flight, which held the tables and waited for the checkpoint row this transaction held.
      await this.moveProcessorCheckpoints(manager, selected);
      // In the same transaction, so the rebuilt tables never show their new rows with the old statistics.
      await manager.query(`ANALYZE ${stored.join(', ')}`);
      await runner.query('COMMIT');
      return eventsReplayed;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // The copies outlive a transaction on purpose; the pooled connection must not keep them.
      for (const table of tables)
        await manager.query(`DROP TABLE IF EXISTS pg_temp.${escapeIdentifier(table)}`).catch(() => undefined);
      await runner.release();
    }
  }

  /**
   * A read model kept by a processor now holds every committed event (the caller holds the SHARE lock on `events`):
   * its processor goes on from the newest commit, in the same transaction as the rebuilt rows. A batch the processor
   * had in flight then fails its checkpoint's compare-and-set, or its rows' keys, and is rolled back.
   */
  private async moveProcessorCheckpoints(manager: EntityManager, selected: readonly InlineProjection[]): Promise<void> {
    const processors = selected.flatMap((projection) => projection.keptByProcessor ?? []);
    if (processors.length === 0) return;
    await manager.query(
      `INSERT INTO checkpoints (name, commit_position)
       SELECT name, (SELECT coalesce(max(commit_position), 0) FROM event_commits) FROM unnest($1::text[]) AS name
       ON CONFLICT (name) DO UPDATE SET commit_position = EXCLUDED.commit_position, updated_at = now()`,
      [processors],
    );
  }

  /** Applies the events committed after `head` to `selected`, in commit order; answers how many it read. */
  private async applyCommittedAfter(
    manager: EntityManager,
    selected: readonly InlineProjection[],
    head: string,
  ): Promise<number> {
    let after = head;
    let read = 0;
    for (;;) {
      const rows: (EventRow & { commit_position: string })[] = await manager.query(
        `SELECT ${EVENT_COLUMNS}, window_commits.commit_position::text AS commit_position
           FROM ${commitWindow('$1::bigint', '$2::int')}
          ORDER BY window_commits.commit_position, events.global_position`,
        [after, REBUILD_BATCH_SIZE],
      );
      if (rows.length === 0) return read;
      await this.apply(
        rows.map((row) => toRecordedEvent(row, this.eventTypes)),
        manager,
        selected,
      );
      read += rows.length;
      after = rows[rows.length - 1].commit_position;
      if (rows.length < REBUILD_BATCH_SIZE) return read;
    }
  }

  /**
   * `replayAll` with the projections in rebuild mode for `manager`'s transaction: rows they keep one of per account,
   * stream or target stay in memory and are written once at the end (`InlineProjection.beginRebuild`). The tables
   * must start empty, as after `reset` or in the replay check's fresh copies.
   */
  async replayKeeping(
    manager: EntityManager,
    selected: readonly InlineProjection[],
    batchSize: number = REBUILD_BATCH_SIZE,
    committedUpTo?: string,
  ): Promise<number> {
    for (const projection of selected) projection.beginRebuild?.(manager);
    try {
      const eventsReplayed = await this.replayAll(manager, selected, batchSize, committedUpTo);
      for (const projection of selected) await projection.endRebuild?.(manager, true);
      return eventsReplayed;
    } catch (error) {
      // The transaction rolls back; the projections leave rebuild mode all the same, writing nothing.
      for (const projection of selected) await projection.endRebuild?.(manager, false);
      throw error;
    }
  }

  /**
   * Applies every event visible to `manager`'s transaction to `selected`, in `global_position` order and in batches
   * of `batchSize`; answers how many events were read. Only the events of types some projection of `selected` uses
   * are decoded (`replayedTypes`); the others are read as positions and passed over. The batch is ordered inside,
   * where the limit applies, and again outside, since a subquery's order is not the result's. With `committedUpTo` only
   * the events committed at or before that commit position are read (a processor's checkpoint, for the replay check).
   */
  async replayAll(
    manager: EntityManager,
    selected: readonly InlineProjection[],
    batchSize: number = REBUILD_BATCH_SIZE,
    committedUpTo?: string,
  ): Promise<number> {
    const replayed = replayedTypes(selected);
    const [types, listedAreWanted] = 'only' in replayed ? [replayed.only, true] : [replayed.except, false];
    let after = '0';
    let eventsReplayed = 0;
    for (;;) {
      const rows: WantedEventRow[] = await manager.query(
        `SELECT ${WANTED_EVENT_COLUMNS}
           FROM (SELECT events.*, (events.type = ANY($3::text[])) = $4::boolean AS wanted
                   FROM events WHERE events.global_position > $1::bigint
                    AND ($5::bigint IS NULL OR EXISTS (
                          SELECT 1 FROM event_commits
                           WHERE ${COMMIT_HOLDS_EVENT('event_commits')}
                             AND event_commits.commit_position <= $5::bigint))
                  ORDER BY events.global_position LIMIT $2) AS batch_events
          ORDER BY batch_events.global_position`,
        [after, batchSize, types, listedAreWanted, committedUpTo ?? null],
      );
      if (rows.length === 0) break;
      const events = rows.filter((row) => row.wanted).map((row) => toRecordedEvent(row, this.eventTypes));
      await this.apply(events, manager, selected);
      eventsReplayed += rows.length;
      after = rows[rows.length - 1].global_position;
      if (rows.length < batchSize) break;
    }
    return eventsReplayed;
  }
}

export function projectionEvents(
  projection: Pick<InlineProjection, 'handles' | 'ignores'>,
  events: readonly RecordedEvent[],
): readonly RecordedEvent[] {
  if (projection.handles === '*') {
    const ignores = projection.ignores ?? [];
    return ignores.length === 0 ? events : events.filter((event) => !ignores.includes(event.type));
  }
  const handles = projection.handles;
  return events.filter((event) => handles.includes(event.type));
}

/**
 * The event types a replay into `selected` must decode: `only` the listed ones when every projection lists what it
 * handles, otherwise every type `except` those that each projection handling every type ignores and that no other
 * projection lists.
 */
export function replayedTypes(
  selected: readonly Pick<InlineProjection, 'handles' | 'ignores'>[],
): { only: readonly string[] } | { except: readonly string[] } {
  const listed = new Set<string>();
  const handlingAll: Array<readonly string[]> = [];
  for (const projection of selected) {
    if (projection.handles === '*') handlingAll.push(projection.ignores ?? []);
    else for (const type of projection.handles) listed.add(type);
  }
  if (handlingAll.length === 0) return { only: [...listed] };
  const [first, ...others] = handlingAll;
  const except = first.filter((type) => !listed.has(type) && others.every((ignores) => ignores.includes(type)));
  return { except };
}
