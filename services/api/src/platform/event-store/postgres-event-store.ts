import { setTimeout as sleep } from 'node:timers/promises';
import type { EventMetadata } from '@kupa/proto';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { type Backoff, backoffDelayMs } from '../jobs/backoff';
import type { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { WrongExpectedVersionError } from './errors';
import { chainHash } from './event-hash';
import {
  commitWindow,
  compareStreamIds,
  EVENT_COLUMNS,
  type EventRow,
  postgresErrorCode,
  SCHEMA_VERSION_KEY,
  storedMetadata,
  toCommittedEvent,
  toRecordedEvent,
  WANTED_EVENT_COLUMNS,
  type WantedEventRow,
} from './event-rows';
import {
  type AppendResult,
  type BatchAppend,
  type BatchTransaction,
  type CommittedEvent,
  EventStore,
  type GlobalCheckpoint,
  type ReadAllOptions,
  type ReadWithLocks,
  type RecordedEvent,
  type StreamAppend,
  type StreamTransaction,
  type TransactMetadata,
  type TransactOptions,
  type TransactResult,
  type TypedWindow,
} from './event-store.port';
import type { EventTypeRegistry } from './event-type-registry';
import { STREAM_VERSION_CONSTRAINT_PATTERN } from './event-partitions';

/** Attempts of one transaction when PostgreSQL aborts it for a serialization failure or a deadlock. */
export const DEFAULT_MAX_TRANSACTION_ATTEMPTS = 5;
/**
 * Retry back-off: full jitter under the capped doubling of background work (10 ms after the first attempt, up to
 * 250 ms), so that colliding callers spread out.
 */
const RETRY_BACKOFF: Backoff = { baseMs: 10, maxMs: 250 };
/** Why PostgreSQL aborted a transaction that only needs to run again. */
export type RetryReason = 'serialization_failure' | 'deadlock';
/** Failures that only mean "try again", by SQLSTATE. */
const RETRYABLE_SQLSTATES = new Map<string, RetryReason>([
  ['40001', 'serialization_failure'],
  ['40P01', 'deadlock'],
]);
const UNIQUE_VIOLATION = '23505';

export interface PostgresEventStoreOptions {
  /** 1 disables retries (tests use it to prove that no deadlock ever happened). */
  maxTransactionAttempts?: number;
  /** Told about every retry, for logs, metrics and tests. */
  onRetry?: (error: unknown, attempt: number, reason: RetryReason) => void;
  /** Told when a transaction starts again to lock, in order, streams another transaction created meanwhile. */
  onRestart?: (streamIds: readonly string[]) => void;
  /** Told after every committed append or transaction: the processors have new events to read. */
  onCommitted?: () => void;
}

/**
 * Starts a transaction again, at once and outside the retry budget: its first statement met streams created by a
 * transaction that committed while it waited, which it cannot lock without breaking the sorted order.
 */
class StreamCreatedMeanwhile extends Error {
  constructor(readonly streamIds: readonly string[]) {
    super(`Streams created by another transaction meanwhile: ${streamIds.join(', ')}`);
  }
}

/**
 * Each restart is owed to a stream that now exists, so a transaction restarts at most once per stream it names; no
 * command names this many, and reaching it means a bug in the locking, not a race.
 */
const MAX_LOCK_RESTARTS = 16;

interface StreamHead {
  version: number;
  lastHash: string | null;
}

interface PendingEvent {
  streamId: string;
  streamVersion: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  dataJson: string;
  metadataJson: string;
  hash: string;
  schemaVersion: number;
}

/** A row of the locking statement: a stream's head, or (with a NULL stream id) a row of one of its reads. */
interface LockedRow {
  stream_id: string | null;
  version: number | null;
  last_hash: string | null;
  read_ordinal?: number | null;
  read_row?: Record<string, unknown> | null;
  /** True for a stream the statement inserted. */
  created?: boolean | null;
}

interface InsertedRow {
  event_id: string;
  global_position: string;
  recorded_at: Date;
}

/**
 * Locks the rows of the streams named by the array parameter `ids` in byte-wise order: PostgreSQL locks rows as the
 * sort emits them.
 */
const lockStreamsIn = (ids: string) =>
  `SELECT stream_id, version, last_hash FROM streams WHERE stream_id = ANY(${ids}::text[]) ORDER BY stream_id FOR UPDATE`;

/**
 * Locks the streams of `$2` (already sorted) one after another in that order, each `FOR SHARE` when its flag in `$3`
 * says the command only reads it and `FOR UPDATE` otherwise. One statement cannot give two lock strengths to rows of
 * one table in a single scan, so each stream is locked by a subquery of its own, run per stream in the array's
 * order (a nested loop over the ordinal); the other subquery's condition is false and locks nothing. A stream that
 * does not exist is in neither answer.
 */
const LOCK_STREAMS_MIXED = `SELECT w.id AS stream_id,
         CASE WHEN w.shared THEN shared.version ELSE exclusive.version END AS version,
         CASE WHEN w.shared THEN shared.last_hash ELSE exclusive.last_hash END AS last_hash
    FROM unnest($2::text[], $3::boolean[]) WITH ORDINALITY AS w(id, shared, n)
    LEFT JOIN LATERAL (SELECT version, last_hash FROM streams
                        WHERE stream_id = w.id AND NOT w.shared FOR UPDATE) exclusive ON true
    LEFT JOIN LATERAL (SELECT version, last_hash FROM streams
                        WHERE stream_id = w.id AND w.shared FOR SHARE) shared ON true
   WHERE exclusive.version IS NOT NULL OR shared.version IS NOT NULL
   ORDER BY w.n`;

const NO_STREAMS: ReadonlySet<string> = new Set();

/** The events of the streams of `streamIds`, as a read of the locking statement (`eventsReadWithLocks`). */
const streamEventsRead = (streamIds: readonly string[]): ReadWithLocks => ({
  sql: (ids) => `SELECT ${EVENT_COLUMNS} FROM events WHERE events.stream_id = ANY(${ids}::text[])`,
  streamIds,
});

/**
 * The event store on PostgreSQL (docs/ARCHITECTURE.md). Every write is one transaction that makes sure the stream rows
 * exist, locks them in byte-wise sorted order (crossing commands wait instead of deadlocking), checks expected
 * versions, inserts all events in a single statement, moves the stream heads, and runs inline projections with the same
 * transaction's entity manager. Nothing is locked globally: appends to different streams proceed in parallel.
 */
export class PostgresEventStore extends EventStore {
  private readonly maxAttempts: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly projections: InlineProjectionRegistry,
    private readonly eventTypes: EventTypeRegistry,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    super();
    this.maxAttempts = Math.max(1, options.maxTransactionAttempts ?? DEFAULT_MAX_TRANSACTION_ATTEMPTS);
  }

  async append(appends: StreamAppend[], metadata: EventMetadata): Promise<AppendResult> {
    assertDistinctStreams(appends);
    return this.inTransaction(async (queryRunner) => {
      const heads = await this.lockStreams(
        queryRunner,
        appends.map((append) => append.streamId),
      );
      return this.appendLocked(queryRunner, appends, metadata, heads);
    });
  }

  /** `work` may run more than once: after a deadlock or serialization failure the whole transaction is retried. */
  async transact<Result>(
    streamIds: string[],
    metadata: TransactMetadata,
    work: (tx: StreamTransaction) => Promise<TransactResult<Result>>,
    options: TransactOptions = {},
  ): Promise<{ result: Result; append: AppendResult }> {
    const readOnly = options.readOnly === undefined ? NO_STREAMS : new Set(options.readOnly);
    for (const streamId of readOnly) {
      if (!streamIds.includes(streamId)) throw new Error(`Read-only stream ${streamId} is not among the named streams`);
    }
    return this.inTransaction(async (queryRunner) => {
      const eventsOf = options.eventsReadWithLocks ?? [];
      const reads = options.readsWithLocks ?? [];
      const { heads, rowsReadWithLocks, createdStreams } = await this.lockStreamsAndRead(
        queryRunner,
        streamIds,
        readOnly,
        eventsOf.length === 0 ? reads : [...reads, streamEventsRead(eventsOf)],
      );
      const eventsRead = eventsOf.length === 0 ? null : this.eventsByStream(eventsOf, rowsReadWithLocks.pop() ?? []);
      const resolved = typeof metadata === 'function' ? metadata() : metadata;
      const tx: StreamTransaction = {
        readStream: (streamId, options) => {
          const read = eventsRead?.get(streamId);
          return read === undefined
            ? this.readStreamWith(queryRunner.manager, streamId, options?.fromVersion)
            : this.readStreamOn(queryRunner.manager, streamId, options?.fromVersion, read, heads);
        },
        streamVersion: async (streamId) =>
          heads.get(streamId)?.version ?? this.streamVersionWith(queryRunner.manager, streamId),
        manager: queryRunner.manager,
        metadata: resolved,
        rowsReadWithLocks,
        createdStreams,
      };
      const { appends, result } = await work(tx);
      assertDistinctStreams(appends);
      // Others read a shared stream at the same time: an append to it would break what they decided on.
      const misused = appends.find((append) => readOnly.has(append.streamId) && append.events.length > 0);
      if (misused) throw new Error(`Stream ${misused.streamId} was locked to be read, not appended to`);
      // Streams the work decided to touch without naming them up front are locked now; that late lock is the one
      // place where crossing commands could still deadlock, and the retry in inTransaction is what covers it.
      const unlocked = appends.map((append) => append.streamId).filter((streamId) => !heads.has(streamId));
      if (unlocked.length > 0) {
        for (const [streamId, head] of await this.lockStreams(queryRunner, unlocked)) heads.set(streamId, head);
      }
      const append = await this.appendLocked(queryRunner, appends, resolved, heads);
      return { result, append };
    });
  }

  async readStream(streamId: string, options: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    return this.readStreamWith(this.dataSource.manager, streamId, options.fromVersion);
  }

  async streamVersion(streamId: string): Promise<number> {
    return this.streamVersionWith(this.dataSource.manager, streamId);
  }

  /**
   * Commit positions become visible in order (the commit trigger of docs/adr/0061), so "after the checkpoint" in one
   * statement never passes an event that commits later. Columns are qualified because the select list aliases their
   * text forms to the same names, and an unqualified ORDER BY would sort those strings ("10" before "9").
   */
  async readAll(after: GlobalCheckpoint, limit: number, options: ReadAllOptions = {}): Promise<CommittedEvent[]> {
    const manager = options.manager ?? this.dataSource.manager;
    const rows: (EventRow & { commit_position: string })[] = await manager.query(
      `SELECT ${EVENT_COLUMNS}, window_commits.commit_position::text AS commit_position
         FROM ${commitWindow('$1::bigint', '$2::int')}
        ORDER BY window_commits.commit_position, events.global_position`,
      [after.commitPosition, limit],
    );
    return rows.map((row) => toCommittedEvent(row, this.eventTypes));
  }

  /**
   * One statement over the window of `readAll`. An event of another type comes back without its data, metadata,
   * hash and time of recording (`WANTED_EVENT_COLUMNS`): decoding those was most of what a processor's batch cost when
   * it handled a few types of many (docs/benchmarks.md). The limit applies to the commits inside (`commitWindow`);
   * the events are ordered outside, since a subquery's order is not the result's.
   */
  async readAllOfTypes(
    after: GlobalCheckpoint,
    limit: number,
    types: readonly string[] | '*',
    options: ReadAllOptions = {},
  ): Promise<TypedWindow> {
    const manager = options.manager ?? this.dataSource.manager;
    const rows: (WantedEventRow & { commit_position: string })[] = await manager.query(
      `SELECT ${WANTED_EVENT_COLUMNS}, window_events.commit_position::text AS commit_position
         FROM (SELECT events.*, window_commits.commit_position,
                      ($3::text[] IS NULL OR events.type = ANY($3::text[])) AS wanted
                 FROM ${commitWindow('$1::bigint', '$2::int')}) AS window_events
        ORDER BY window_events.commit_position, window_events.global_position`,
      [after.commitPosition, limit, types === '*' ? null : types],
    );
    const last = rows[rows.length - 1];
    return {
      events: rows.filter((row) => row.wanted).map((row) => toCommittedEvent(row, this.eventTypes)),
      read: rows.length,
      end: last ? { commitPosition: last.commit_position } : null,
    };
  }

  /** The events the locking statement read, by stream (`TransactOptions.eventsReadWithLocks`), in version order. */
  private eventsByStream(
    streamIds: readonly string[],
    rows: readonly Record<string, unknown>[],
  ): Map<string, RecordedEvent[]> {
    const byStream = new Map<string, RecordedEvent[]>(streamIds.map((streamId) => [streamId, []]));
    for (const row of rows) {
      // The row came through to_jsonb: the time of recording is its ISO text.
      const eventRow = { ...row, recorded_at: new Date(row.recorded_at as string) } as unknown as EventRow;
      byStream.get(eventRow.stream_id)?.push(toRecordedEvent(eventRow, this.eventTypes));
    }
    for (const events of byStream.values()) events.sort((left, right) => left.streamVersion - right.streamVersion);
    return byStream;
  }

  /**
   * A stream's events from `fromVersion` on, given those the locking statement read: that statement's snapshot
   * predates any wait for the lock, so events appended meanwhile (or by this transaction) are read after the last
   * one it saw, and only then.
   */
  private async readStreamOn(
    manager: EntityManager,
    streamId: string,
    fromVersion = 1,
    read: readonly RecordedEvent[],
    heads: ReadonlyMap<string, StreamHead>,
  ): Promise<RecordedEvent[]> {
    const known = read.filter((event) => event.streamVersion >= fromVersion);
    const lastRead = read.length === 0 ? 0 : read[read.length - 1].streamVersion;
    const head = heads.get(streamId)?.version ?? 0;
    if (lastRead >= head) return known;
    return [...known, ...(await this.readStreamWith(manager, streamId, Math.max(fromVersion, lastRead + 1)))];
  }

  private async readStreamWith(manager: EntityManager, streamId: string, fromVersion = 1): Promise<RecordedEvent[]> {
    const rows: EventRow[] = await manager.query(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
      [streamId, fromVersion],
    );
    return rows.map((row) => toRecordedEvent(row, this.eventTypes));
  }

  private async streamVersionWith(manager: EntityManager, streamId: string): Promise<number> {
    const rows: { version: number }[] = await manager.query('SELECT version FROM streams WHERE stream_id = $1', [
      streamId,
    ]);
    return rows[0]?.version ?? 0;
  }

  /**
   * Creates the streams that do not exist yet and locks all of them, in one statement. `FOR UPDATE` alone would lock
   * nothing for a stream that does not exist, letting two first writers pass together; a row this statement inserts
   * is held by the inserting transaction until it ends. The insert runs first, in byte-wise order, then the sorted
   * SELECT locks the rows that existed (PostgreSQL locks rows as the sort emits them, so the locking order is the sort
   * order). The SELECT sees the rows committed when the statement began: a stream another transaction created and
   * committed meanwhile is in neither half, and a second, plain locking SELECT fetches it.
   *
   * The `readOnly` streams are locked `FOR SHARE`, in the same sorted order: commands that only read a stream (every
   * purchase reads its package) then run side by side, while a command that appends to it waits for them, and they
   * for it. They are not created: one that does not exist reads as empty (version 0), as of the statement's start.
   */
  private async lockStreams(
    queryRunner: QueryRunner,
    streamIds: readonly string[],
    readOnly: ReadonlySet<string> = NO_STREAMS,
  ): Promise<Map<string, StreamHead>> {
    return (await this.lockStreamsAndRead(queryRunner, streamIds, readOnly, [])).heads;
  }

  /**
   * `lockStreams`, with the `reads` run in the same statement after the locking halves: their rows come back beside
   * the heads as JSON objects (a stream id of NULL and the read's ordinal tell them apart), as of the statement's
   * snapshot (`ReadWithLocks`).
   */
  private async lockStreamsAndRead(
    queryRunner: QueryRunner,
    streamIds: readonly string[],
    readOnly: ReadonlySet<string>,
    reads: readonly ReadWithLocks[],
  ): Promise<{
    heads: Map<string, StreamHead>;
    rowsReadWithLocks: Record<string, unknown>[][];
    createdStreams: Set<string>;
  }> {
    const sorted = [...new Set(streamIds)].sort(compareStreamIds);
    const heads = new Map<string, StreamHead>();
    const rowsReadWithLocks: Record<string, unknown>[][] = reads.map(() => []);
    const createdStreams = new Set<string>();
    if (sorted.length === 0) return { heads, rowsReadWithLocks, createdStreams };
    const keep = (rows: LockedRow[]) => {
      for (const row of rows) {
        if (row.stream_id === null) rowsReadWithLocks[row.read_ordinal ?? 0].push(row.read_row ?? {});
        else heads.set(row.stream_id, { version: row.version ?? 0, lastHash: row.last_hash });
        if (row.created === true && row.stream_id !== null) createdStreams.add(row.stream_id);
      }
    };
    const written = readOnly.size === 0 ? sorted : sorted.filter((streamId) => !readOnly.has(streamId));
    // Without read-only streams, the streams written are all of them and one parameter serves both halves.
    const [locking, lockParameters] =
      readOnly.size === 0
        ? [lockStreamsIn('$1'), []]
        : [LOCK_STREAMS_MIXED, [sorted, sorted.map((streamId) => readOnly.has(streamId))]];
    const parameters: unknown[] = [written, ...lockParameters];
    const readParts = reads.map((read, ordinal) => {
      parameters.push(read.streamIds);
      return `SELECT NULL::text, NULL::int, NULL::text, ${ordinal}, to_jsonb(r), NULL::boolean FROM (${read.sql(`$${parameters.length}`)}) r`;
    });
    keep(
      await queryRunner.query(
        `WITH inserted AS (
           INSERT INTO streams (stream_id, version)
             SELECT id, 0 FROM unnest($1::text[]) WITH ORDINALITY AS s(id, n) ORDER BY n
             ON CONFLICT DO NOTHING
             RETURNING stream_id, version, last_hash),
         locked AS (${locking})
         SELECT *, NULL::int AS read_ordinal, NULL::jsonb AS read_row, true AS created FROM inserted
         UNION ALL SELECT *, NULL::int, NULL::jsonb, false FROM locked${readParts.map((part) => `\n         UNION ALL ${part}`).join('')}`,
        parameters,
      ),
    );
    const missing = written.filter((streamId) => !heads.has(streamId));
    if (missing.length > 0) {
      // A stream in neither half was created and committed by another transaction while this statement waited on its
      // insert. Locking it now keeps the sorted order only if it sorts after every stream this transaction already
      // holds (locked, or inserted and so held until commit); otherwise the late lock could close a cycle with a
      // command that locked it first and waits for one of ours, and the transaction starts again instead, when the
      // new stream is visible to its first statement.
      // `missing` keeps the sorted order, so its first stream is the one that could sort before a held one.
      if ([...heads.keys()].some((held) => compareStreamIds(missing[0], held) < 0)) {
        throw new StreamCreatedMeanwhile(missing);
      }
      keep(await queryRunner.query(lockStreamsIn('$1'), [missing]));
    }
    for (const streamId of readOnly) {
      if (!heads.has(streamId)) heads.set(streamId, { version: 0, lastHash: null });
    }
    return { heads, rowsReadWithLocks, createdStreams };
  }

  /**
   * Several commands decided together in one transaction (docs/adr/0130-group-commit.md): the union of their streams
   * locked in one statement, `work` loads and decides every command, and what it returns is appended with each
   * command's own metadata, in one insert and one pass of the inline projections. The streams of the appends must be
   * among those locked; none is read only. `work` may run more than once, as in `transact`.
   */
  async transactBatch<Result>(
    streamIds: readonly string[],
    work: (tx: BatchTransaction) => Promise<{ appends: readonly BatchAppend[]; result: Result }>,
    options: { readsWithLocks?: readonly ReadWithLocks[] } = {},
  ): Promise<{ result: Result; append: AppendResult }> {
    return this.inTransaction(async (queryRunner) => {
      const { heads, rowsReadWithLocks, createdStreams } = await this.lockStreamsAndRead(
        queryRunner,
        streamIds,
        NO_STREAMS,
        options.readsWithLocks ?? [],
      );
      const tx: BatchTransaction = {
        readStream: (streamId, readOptions) =>
          this.readStreamWith(queryRunner.manager, streamId, readOptions?.fromVersion),
        streamVersion: async (streamId) =>
          heads.get(streamId)?.version ?? this.streamVersionWith(queryRunner.manager, streamId),
        manager: queryRunner.manager,
        rowsReadWithLocks,
        createdStreams,
      };
      const { appends, result } = await work(tx);
      assertDistinctStreams(appends.map((entry) => entry.append));
      const append = await this.appendLocked(
        queryRunner,
        appends.map((entry) => entry.append),
        appends.map((entry) => entry.metadata),
        heads,
      );
      return { result, append };
    });
  }

  /** `metadata`: the one all events carry, or each append's own (by index), for a batch of commands. */
  private async appendLocked(
    queryRunner: QueryRunner,
    appends: readonly StreamAppend[],
    metadata: EventMetadata | readonly EventMetadata[],
    heads: Map<string, StreamHead>,
  ): Promise<AppendResult> {
    const pending: PendingEvent[] = [];
    const streamVersions: Record<string, number> = {};
    const movedHeads: { streamId: string; version: number; lastHash: string | null }[] = [];
    const metadataOf = (index: number): EventMetadata =>
      Array.isArray(metadata) ? (metadata as readonly EventMetadata[])[index] : (metadata as EventMetadata);
    const ordered = appends
      .map((append, index) => ({ append, metadata: metadataOf(index) }))
      .sort((left, right) => compareStreamIds(left.append.streamId, right.append.streamId));
    for (const { append, metadata: appendMetadata } of ordered) {
      const head = heads.get(append.streamId);
      if (!head) throw new Error(`Stream ${append.streamId} was not locked before appending`);
      if (append.expectedVersion !== 'any' && append.expectedVersion !== head.version) {
        throw new WrongExpectedVersionError(append.streamId, append.expectedVersion, head.version);
      }
      let version = head.version;
      let lastHash = head.lastHash;
      for (const event of append.events) {
        version += 1;
        const schemaVersion = this.eventTypes.schemaVersion(event.type);
        const eventMetadata = storedMetadata(appendMetadata, schemaVersion);
        // The JSON round trip hands projections and callers exactly what a later read returns (no Dates, no
        // undefined members), and the hash is computed over that same value.
        const dataJson = JSON.stringify(event.data ?? null);
        const data: unknown = JSON.parse(dataJson);
        const fields = {
          streamId: append.streamId,
          streamVersion: version,
          type: event.type,
          data,
          metadata: eventMetadata,
        };
        const hash = chainHash(lastHash, fields);
        pending.push({ ...fields, dataJson, metadataJson: JSON.stringify(eventMetadata), hash, schemaVersion });
        lastHash = hash;
      }
      streamVersions[append.streamId] = version;
      if (version !== head.version) movedHeads.push({ streamId: append.streamId, version, lastHash });
      heads.set(append.streamId, { version, lastHash });
    }
    if (pending.length === 0) return { events: [], streamVersions };

    const inserted: InsertedRow[] = await queryRunner.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::jsonb[], $6::text[]) WITH ORDINALITY
           AS i(stream_id, stream_version, type, data, metadata, hash, ordinal)
       ), inserted AS (
         INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
         SELECT stream_id, stream_version, type, data, metadata, hash FROM input ORDER BY ordinal
         RETURNING event_id, global_position, recorded_at
       ), moved AS (
         UPDATE streams SET version = h.version, last_hash = h.last_hash
           FROM unnest($7::text[], $8::int[], $9::text[]) AS h(stream_id, version, last_hash)
          WHERE streams.stream_id = h.stream_id
       )
       SELECT event_id::text AS event_id, global_position::text AS global_position, recorded_at
         FROM inserted ORDER BY inserted.global_position`,
      [
        pending.map((event) => event.streamId),
        pending.map((event) => event.streamVersion),
        pending.map((event) => event.type),
        pending.map((event) => event.dataJson),
        pending.map((event) => event.metadataJson),
        pending.map((event) => event.hash),
        movedHeads.map((head) => head.streamId),
        movedHeads.map((head) => head.version),
        movedHeads.map((head) => head.lastHash),
      ],
    );
    // A multi-row INSERT takes its sequence values in input order, so sorted positions line up with the input.
    const events: RecordedEvent[] = pending.map((event, index) => {
      const { [SCHEMA_VERSION_KEY]: _schemaVersion, ...callerMetadata } = event.metadata;
      return {
        eventId: inserted[index].event_id,
        globalPosition: inserted[index].global_position,
        streamId: event.streamId,
        streamVersion: event.streamVersion,
        type: event.type,
        data: event.data,
        metadata: callerMetadata as unknown as EventMetadata,
        recordedAt: inserted[index].recorded_at,
        hash: event.hash,
        schemaVersion: event.schemaVersion,
      };
    });
    await this.projections.apply(events, queryRunner.manager);
    return { events, streamVersions };
  }

  /** Runs `work` in one transaction on a connection of its own; retries only what PostgreSQL asks to retry. */
  private async inTransaction<T>(work: (queryRunner: QueryRunner) => Promise<T>): Promise<T> {
    let attempt = 1;
    let restarts = 0;
    for (;;) {
      const queryRunner = this.dataSource.createQueryRunner();
      try {
        await queryRunner.connect();
        await queryRunner.startTransaction();
        const result = await work(queryRunner);
        await queryRunner.commitTransaction();
        this.options.onCommitted?.();
        return result;
      } catch (error) {
        await rollbackQuietly(queryRunner);
        // Not a failure: the stream exists now, so the next try locks it in order. Each stream is created once, so
        // restarts are few; the bound only turns a bug into an error instead of a loop.
        if (error instanceof StreamCreatedMeanwhile && restarts < MAX_LOCK_RESTARTS) {
          restarts += 1;
          this.options.onRestart?.(error.streamIds);
          continue;
        }
        const code = postgresErrorCode(error);
        const reason = code === undefined ? undefined : RETRYABLE_SQLSTATES.get(code);
        if (reason !== undefined && attempt < this.maxAttempts) {
          this.options.onRetry?.(error, attempt, reason);
          await sleep(Math.random() * backoffDelayMs(RETRY_BACKOFF, attempt));
          attempt += 1;
          continue;
        }
        throw translateError(error);
      } finally {
        await queryRunner.release();
      }
    }
  }
}

function assertDistinctStreams(appends: readonly StreamAppend[]): void {
  const seen = new Set<string>();
  for (const append of appends) {
    if (seen.has(append.streamId)) throw new Error(`Stream ${append.streamId} appears twice in one append`);
    seen.add(append.streamId);
  }
}

async function rollbackQuietly(queryRunner: QueryRunner): Promise<void> {
  if (!queryRunner.isTransactionActive) return;
  try {
    await queryRunner.rollbackTransaction();
  } catch {
    // The connection is already broken; PostgreSQL rolls the transaction back itself when the session ends.
  }
}

/**
 * A unique violation on (stream_id, stream_version) is another writer having won the race for that version; once
 * `events` is partitioned the constraint is each partition's own (docs/adr/0114-partitioned-events.md).
 */
function translateError(error: unknown): unknown {
  if (postgresErrorCode(error) !== UNIQUE_VIOLATION) return error;
  const details = error as { constraint?: string; detail?: string };
  if (!STREAM_VERSION_CONSTRAINT_PATTERN.test(details.constraint ?? '')) return error;
  const match = /=\((.*), (\d+)\)/.exec(details.detail ?? '');
  if (!match) return error;
  const version = Number(match[2]);
  return new WrongExpectedVersionError(match[1], version - 1, version);
}
