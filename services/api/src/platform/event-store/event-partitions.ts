import { CREATE_EVENT_COMMIT_TRIGGER } from '../database/migrations/1772400012800-event-commits-per-transaction';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { type Backoff, backoffDelayMs } from '../jobs/backoff';
import { postgresErrorCode } from './event-rows';

/**
 * Positions per partition when the operator names none: at the rates measured in docs/benchmarks.md a partition
 * fills in weeks, and a two-million-event history stays in its first one.
 */
export const DEFAULT_EVENT_PARTITION_SIZE = 10_000_000;
/** Whole empty partitions kept beyond the one the position sequence is in (the recurring job makes them). */
export const EVENT_PARTITIONS_AHEAD = 2;
/**
 * How long one short-lock step waits for its lock before it gives up and tries again: an append queued behind a
 * waiting ACCESS EXCLUSIVE request waits too, so the wait must stay short.
 */
export const EVENT_PARTITION_LOCK_TIMEOUT_MS = 2_000;
/** Tries of one short-lock step before the command fails (and can simply be run again). */
export const EVENT_PARTITION_LOCK_ATTEMPTS = 10;
/** The CHECK that proves the old table fits its range, so that attaching it scans nothing. */
export const EVENT_PARTITION_BOUND_CONSTRAINT = 'events_partition_bound';
/** The unique constraint per partition that `translateError` reads as a lost race for a stream version. */
export const STREAM_VERSION_CONSTRAINT_PATTERN = /^events(_p\d+)?_stream_version_unique$/;

const LOCK_NOT_AVAILABLE = '55P03';
const LOCK_RETRY_BACKOFF: Backoff = { baseMs: 200, maxMs: 5_000 };

export type EventPartitionPhase = 'bound-added' | 'bound-validated' | 'swapped';

export interface PartitionEventsOptions {
  /** Positions per partition (the first one, the old table, covers everything below its boundary). */
  partitionSize?: number;
  lockTimeoutMs?: number;
  lockAttempts?: number;
  /** Told as each step completes (the spec appends between them; the CLI prints them). */
  onPhase?: (phase: EventPartitionPhase, detail: { boundary: string }) => void | Promise<void>;
}

export interface EventPartition {
  name: string;
  /** `null` for the first partition, which starts at MINVALUE. */
  from: string | null;
  to: string;
}

export interface PartitionEventsReport {
  /** False when `events` was partitioned already; then only partitions ahead were made. */
  partitionedNow: boolean;
  /** Where the first partition (the old table) ends; null when nothing was done now. */
  boundary: string | null;
  validateMs: number;
  swapMs: number;
  /** Short-lock steps tried again because their lock was not granted in time. */
  lockRetries: number;
  partitionsMade: string[];
  partitions: EventPartition[];
}

/** Whether `events` is a partitioned table (after `kupa events partition`) or the plain table of the migrations. */
export async function eventsArePartitioned(dataSource: DataSource): Promise<boolean> {
  const [row]: Array<{ kind: string }> = await dataSource.query(
    `SELECT relkind::text AS kind FROM pg_class WHERE oid = 'events'::regclass`,
  );
  return row.kind === 'p';
}

/** The partitions of `events` with their ranges, lowest first; empty while the table is not partitioned. */
export async function eventPartitions(dataSource: DataSource | QueryRunner): Promise<EventPartition[]> {
  const rows: Array<{ name: string; bound: string }> = await dataSource.query(
    `SELECT c.relname::text AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass`,
  );
  return rows
    .map((row) => {
      const match = /FROM \((?:MINVALUE|'?(-?\d+)'?)\) TO \('?(-?\d+)'?\)/.exec(row.bound);
      if (!match) throw new Error(`Partition ${row.name} of events has a range this code cannot read: ${row.bound}`);
      return { name: row.name, from: match[1] ?? null, to: match[2] };
    })
    .sort((left, right) => compareBigInts(left.to, right.to));
}

/**
 * `kupa events partition` (docs/adr/0114-partitioned-events.md): turns the plain `events` table into a table
 * partitioned by `global_position` range while appends go on, then makes the partitions ahead. Run again, it only
 * makes partitions ahead. Steps:
 * 1. Picks a boundary at least half a partition above the position sequence, rounded up to a whole partition, and
 *    adds `CHECK (global_position < boundary) NOT VALID` (an instant catalog change under a short lock).
 * 2. Validates the CHECK: a scan of the whole table under SHARE UPDATE EXCLUSIVE, which appends and reads pass.
 * 3. In one short transaction under ACCESS EXCLUSIVE: renames the table and its index-backed constraints, creates
 *    the partitioned `events` like it, attaches the old table as the partition below the boundary (the validated
 *    CHECK proves the range, so nothing is scanned), moves the commit trigger and the sequence to the parent, and
 *    makes the first partitions above the boundary.
 * Each short-lock step waits for its lock at most `lockTimeoutMs`, and is tried again after a back-off when it was
 * not granted, so an append never queues behind it for longer.
 */
export async function partitionEvents(
  dataSource: DataSource,
  options: PartitionEventsOptions = {},
): Promise<PartitionEventsReport> {
  const partitionSize = options.partitionSize ?? DEFAULT_EVENT_PARTITION_SIZE;
  if (!Number.isSafeInteger(partitionSize) || partitionSize < 1)
    throw new Error('The partition size is a whole number');
  const locks = new ShortLocks(dataSource, options);
  if (await eventsArePartitioned(dataSource)) {
    // Without a size named, the partitions ahead keep the newest one's width.
    const partitionsMade = await makePartitionsAhead(dataSource, options);
    return {
      partitionedNow: false,
      boundary: null,
      validateMs: 0,
      swapMs: 0,
      lockRetries: 0,
      partitionsMade,
      partitions: await eventPartitions(dataSource),
    };
  }

  // A bound left by a run that stopped before the swap may be too low by now: it is picked again.
  const boundary = await locks.run(async (runner) => {
    await runner.query(`ALTER TABLE events DROP CONSTRAINT IF EXISTS ${EVENT_PARTITION_BOUND_CONSTRAINT}`);
    const next = BigInt(await nextPosition(runner));
    const size = BigInt(partitionSize);
    const picked = ((next + size / 2n) / size + 1n) * size;
    await runner.query(
      `ALTER TABLE events ADD CONSTRAINT ${EVENT_PARTITION_BOUND_CONSTRAINT} CHECK (global_position < ${picked}) NOT VALID`,
    );
    return picked.toString();
  });
  await options.onPhase?.('bound-added', { boundary });

  const validateStarted = performance.now();
  await dataSource.query(`ALTER TABLE events VALIDATE CONSTRAINT ${EVENT_PARTITION_BOUND_CONSTRAINT}`);
  const validateMs = Math.round(performance.now() - validateStarted);
  await options.onPhase?.('bound-validated', { boundary });

  const firstPartition = 'events_p0';
  const swapStarted = performance.now();
  const partitionsMade = await locks.run(async (runner) => {
    await runner.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    const next = BigInt(await nextPosition(runner));
    if (next >= BigInt(boundary)) {
      throw new Error(
        `The position sequence reached the boundary ${boundary} before the swap; run kupa events partition again`,
      );
    }
    await runner.query(`ALTER TABLE events RENAME TO ${firstPartition}`);
    // Index names are unique in the schema: the parent's own take the old names.
    const indexBacked: Array<{ name: string }> = await runner.query(
      `SELECT conname::text AS name FROM pg_constraint
        WHERE conrelid = '${firstPartition}'::regclass AND contype IN ('p', 'u') AND conname LIKE 'events\\_%'`,
    );
    for (const { name } of indexBacked) {
      await runner.query(
        `ALTER TABLE ${firstPartition} RENAME CONSTRAINT ${name} TO ${firstPartition}${name.slice('events'.length)}`,
      );
    }
    await runner.query(`DROP TRIGGER events_number_commit ON ${firstPartition}`);
    await runner.query(
      `CREATE TABLE events (LIKE ${firstPartition} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
         PARTITION BY RANGE (global_position)`,
    );
    await runner.query(`ALTER TABLE events DROP CONSTRAINT ${EVENT_PARTITION_BOUND_CONSTRAINT}`);
    await runner.query('ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (global_position)');
    await runner.query(
      `ALTER SEQUENCE ${await positionSequence(runner, firstPartition)} OWNED BY events.global_position`,
    );
    await runner.query(
      `ALTER TABLE events ATTACH PARTITION ${firstPartition} FOR VALUES FROM (MINVALUE) TO (${boundary})`,
    );
    await runner.query(`ALTER TABLE ${firstPartition} DROP CONSTRAINT ${EVENT_PARTITION_BOUND_CONSTRAINT}`);
    // Cloned onto every partition, now and attached later (PostgreSQL 11 and newer allow row triggers, constraint triggers too, on a partitioned table).
    await runner.query(CREATE_EVENT_COMMIT_TRIGGER);
    // Under the lock already held, so no append can reach a position without a partition.
    return makePartitionsAheadWith(runner, partitionSize);
  });
  const swapMs = Math.round(performance.now() - swapStarted);
  await options.onPhase?.('swapped', { boundary });
  await dataSource.query('ANALYZE events');
  return {
    partitionedNow: true,
    boundary,
    validateMs,
    swapMs,
    lockRetries: locks.retries,
    partitionsMade,
    partitions: await eventPartitions(dataSource),
  };
}

/**
 * Makes empty partitions until `EVENT_PARTITIONS_AHEAD` whole ones lie beyond the position sequence, each as wide as
 * the newest (or `partitionSize` when given). Nothing to do while `events` is not partitioned. Each partition is
 * made as a table of its own and attached: ATTACH takes SHARE UPDATE EXCLUSIVE on `events`, which appends and reads
 * pass, where `CREATE TABLE … PARTITION OF` would take ACCESS EXCLUSIVE.
 */
export async function makePartitionsAhead(
  dataSource: DataSource,
  options: Pick<PartitionEventsOptions, 'lockTimeoutMs' | 'lockAttempts'> & { partitionSize?: number } = {},
): Promise<string[]> {
  if (!(await eventsArePartitioned(dataSource))) return [];
  return new ShortLocks(dataSource, options).run((runner) => makePartitionsAheadWith(runner, options.partitionSize));
}

async function makePartitionsAheadWith(runner: QueryRunner, partitionSize?: number): Promise<string[]> {
  const made: string[] = [];
  const partitions = await eventPartitions(runner);
  const newest = partitions[partitions.length - 1];
  const width =
    partitionSize !== undefined
      ? BigInt(partitionSize)
      : newest.from === null
        ? BigInt(DEFAULT_EVENT_PARTITION_SIZE)
        : BigInt(newest.to) - BigInt(newest.from);
  const next = BigInt(await nextPosition(runner));
  let top = BigInt(newest.to);
  // The partition `next` falls in, then the whole ones ahead of it.
  const wanted = next + width * BigInt(EVENT_PARTITIONS_AHEAD);
  while (top <= wanted) {
    const name = `events_p${top}`;
    await runner.query(`CREATE TABLE ${name} (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    // Unique within the partition only: PostgreSQL requires the partition key in a unique index of the parent (ADR 0114).
    // `event_id` has no index (ADR 0128): verify names a duplicated one.
    await runner.query(
      `ALTER TABLE ${name} ADD CONSTRAINT ${name}_stream_version_unique UNIQUE (stream_id, stream_version)`,
    );
    await runner.query(`ALTER TABLE events ATTACH PARTITION ${name} FOR VALUES FROM (${top}) TO (${top + width})`);
    made.push(name);
    top += width;
  }
  return made;
}

/** The position the next append takes (without taking one). */
async function nextPosition(runner: QueryRunner): Promise<string> {
  const sequence = await positionSequence(runner, 'events');
  const [row]: Array<{ next: string }> = await runner.query(
    `SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM ${sequence}`,
  );
  return row.next;
}

async function positionSequence(runner: QueryRunner, table: string): Promise<string> {
  const [row]: Array<{ sequence: string | null }> = await runner.query(
    `SELECT pg_get_serial_sequence($1, 'global_position') AS sequence`,
    [table],
  );
  // After the swap the sequence belongs to the parent, the old table's default still names it.
  return row.sequence ?? 'events_global_position_seq';
}

function compareBigInts(left: string, right: string): number {
  const difference = BigInt(left) - BigInt(right);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** Runs short transactions that wait for their locks only briefly, trying again after a back-off when refused. */
class ShortLocks {
  retries = 0;
  private readonly timeoutMs: number;
  private readonly attempts: number;

  constructor(
    private readonly dataSource: DataSource,
    options: Pick<PartitionEventsOptions, 'lockTimeoutMs' | 'lockAttempts'>,
  ) {
    this.timeoutMs = options.lockTimeoutMs ?? EVENT_PARTITION_LOCK_TIMEOUT_MS;
    this.attempts = options.lockAttempts ?? EVENT_PARTITION_LOCK_ATTEMPTS;
  }

  async run<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const runner = this.dataSource.createQueryRunner();
      try {
        await runner.connect();
        await runner.startTransaction();
        await runner.query(`SET LOCAL lock_timeout = '${this.timeoutMs}ms'`);
        const result = await work(runner);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        if (postgresErrorCode(error) !== LOCK_NOT_AVAILABLE || attempt >= this.attempts) throw error;
        this.retries += 1;
        await sleep(Math.random() * backoffDelayMs(LOCK_RETRY_BACKOFF, attempt));
      } finally {
        await runner.release();
      }
    }
  }
}
