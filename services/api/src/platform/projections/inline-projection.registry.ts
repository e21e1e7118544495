import { escapeIdentifier } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { toRecordedEvent, WANTED_EVENT_COLUMNS, type WantedEventRow } from '../event-store/event-rows';
import type { InlineProjection, RecordedEvent } from '../event-store/event-store.port';
import type { EventTypeRegistry } from '../event-store/event-type-registry';

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

  /** Runs every projection that handles some of `events` with just those events, in registration order. */
  async apply(
    events: readonly RecordedEvent[],
    manager: EntityManager,
    only: readonly InlineProjection[] = this.projections,
  ): Promise<void> {
    if (events.length === 0) return;
    for (const projection of only) {
      const handled = projectionEvents(projection, events);
      if (handled.length > 0) await projection.apply(handled, manager);
    }
  }

  /**
   * Empties one read model (or all) and replays every event into it, in one transaction. The transaction takes a
   * SHARE lock on `events`, which waits for every append in flight and holds new ones back until the rebuild
   * commits, so the replay sees a complete history and no append updates a read model half rebuilt.
   * The replay follows `global_position`: under that lock every committed event is visible, and within a stream
   * positions follow versions (events of a stream are inserted under its row lock). Processors do not wait for it:
   * they read by commit position, which no other transaction's snapshot holds back (docs/adr/0061); those that append
   * wait for the lock like any command.
   */
  async rebuild(name?: string): Promise<RebuildReport> {
    const selected = name === undefined ? [...this.projections] : [this.get(name)];
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE events IN SHARE MODE');
      for (const projection of selected) await projection.reset(manager);
      const eventsReplayed = await this.replayKeeping(manager, selected);
      const tables = selected.flatMap((projection) => projection.tables ?? []);
      // In the same transaction, so the rebuilt tables never show their new rows with the old statistics.
      if (tables.length > 0) await manager.query(`ANALYZE ${tables.map(escapeIdentifier).join(', ')}`);
      return { projections: selected.map((projection) => projection.name), eventsReplayed };
    });
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
  ): Promise<number> {
    for (const projection of selected) projection.beginRebuild?.(manager);
    try {
      const eventsReplayed = await this.replayAll(manager, selected, batchSize);
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
   * where the limit applies, and again outside, since a subquery's order is not the result's.
   */
  async replayAll(
    manager: EntityManager,
    selected: readonly InlineProjection[],
    batchSize: number = REBUILD_BATCH_SIZE,
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
                  ORDER BY events.global_position LIMIT $2) AS batch_events
          ORDER BY batch_events.global_position`,
        [after, batchSize, types, listedAreWanted],
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
