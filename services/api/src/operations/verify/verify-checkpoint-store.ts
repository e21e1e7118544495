import type { DataSource, EntityManager } from 'typeorm';
import type { SqlReader } from '../../platform/database/read-only-snapshot';
import type { StreamHead } from '../../platform/event-store/hash-chain-continuation';
import {
  bucketBalancesDigest,
  bucketCountFor,
  bucketHeadsDigest,
  bucketOf,
  type CheckpointHeader,
  type CheckpointKind,
  type CheckpointState,
  checkpointHash,
  digestOfBuckets,
  intoBuckets,
} from './verify-checkpoint';

/** Rows written or read per statement of a checkpoint's state; bounds each statement's parameters. */
const CHECKPOINT_WRITE_BATCH_ROWS = 10_000;

/** One writer of checkpoints at a time, so that two verifies finishing together cannot both chain to the same one. */
const CHECKPOINT_WRITE_LOCK = 'kupa ledger verify checkpoint';

interface HeaderRow {
  checkpoint_id: string;
  kind: CheckpointKind;
  commit_position: string;
  created_at: string;
  events_verified: string;
  bucket_count: number;
  balances_digest: string;
  heads_digest: string;
  previous_hash: string | null;
  hash: string;
}

/** A FULL checkpoint: the whole state at its position, which replaces the state rows (ADR 0122). */
export interface FullCheckpointToWrite extends CheckpointState {
  kind: 'FULL';
  commitPosition: string;
  eventsVerified: number;
  continues: null;
}

/**
 * A SINCE checkpoint: what moved since the checkpoint it continued, which must still be the newest when it is written.
 * Its digests were computed by the verify from the touched buckets' rows and the other buckets' stored digests.
 */
export interface SinceCheckpointToWrite {
  kind: 'SINCE';
  commitPosition: string;
  eventsVerified: number;
  continues: number;
  bucketCount: number;
  balancesDigest: string;
  headsDigest: string;
  /** The new head of each stream the window moved. */
  movedHeads: ReadonlyMap<string, StreamHead>;
  /** The new balance of each account whose balance changed; zero ones are deleted, not kept. */
  movedBalances: Readonly<Record<string, number>>;
  /** The new digests of each bucket whose rows changed. */
  changedBuckets: ReadonlyMap<number, BucketDigests>;
}

export type CheckpointToWrite = FullCheckpointToWrite | SinceCheckpointToWrite;

export type CheckpointWrite = { written: true; header: CheckpointHeader } | { written: false; reason: string };

/** A bucket's two digests (ADR 0122). */
export interface BucketDigests {
  headsDigest: string;
  balancesDigest: string;
}

/** The rows of some buckets, as stored, each with the bucket it is filed in. */
export interface StateBucketRows {
  heads: Array<{ streamId: string; bucket: number; head: StreamHead }>;
  balances: Array<{ account: string; bucket: number; balanceMinor: number }>;
}

/**
 * Every checkpoint header in id order (a few a day: a year of them is a small read). The ORDER BY names the table's
 * column: a bare `checkpoint_id` is the text output column, which put checkpoint 9 after checkpoint 10.
 */
export async function loadCheckpointHeaders(reader: SqlReader): Promise<CheckpointHeader[]> {
  const rows: HeaderRow[] = await reader.query(
    `SELECT checkpoint_id::text, kind, commit_position::text, events_verified::text, bucket_count, balances_digest,
            heads_digest, previous_hash, hash,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
       FROM ledger_verify_checkpoints ORDER BY ledger_verify_checkpoints.checkpoint_id`,
  );
  return rows.map((row) => ({
    checkpointId: Number(row.checkpoint_id),
    kind: row.kind,
    commitPosition: row.commit_position,
    createdAt: row.created_at,
    eventsVerified: Number(row.events_verified),
    bucketCount: row.bucket_count,
    balancesDigest: row.balances_digest,
    headsDigest: row.heads_digest,
    previousHash: row.previous_hash,
    hash: row.hash,
  }));
}

/**
 * Every bucket's stored digests, by bucket number (one short row per bucket: about one per eight streams). A bucket
 * with no row, or a row outside `[0, bucketCount)`, leaves the digest over them unequal to the header's.
 */
export async function loadBucketDigests(
  reader: SqlReader,
  bucketCount: number,
): Promise<{ heads: string[]; balances: string[]; rows: number }> {
  const heads: string[] = Array.from({ length: bucketCount }, () => 'missing');
  const balances: string[] = [...heads];
  let rows = 0;
  for (let after = -(2 ** 31) - 1; ;) {
    const batch: Array<{ bucket: number; heads_digest: string; balances_digest: string }> = await reader.query(
      `SELECT bucket, heads_digest, balances_digest FROM ledger_verify_state_buckets
        WHERE bucket > $1::bigint ORDER BY bucket LIMIT $2`,
      [after, CHECKPOINT_WRITE_BATCH_ROWS * 5],
    );
    rows += batch.length;
    for (const row of batch) {
      if (row.bucket < 0 || row.bucket >= bucketCount) {
        heads.push(row.heads_digest);
        balances.push(row.balances_digest);
        continue;
      }
      heads[row.bucket] = row.heads_digest;
      balances[row.bucket] = row.balances_digest;
    }
    if (batch.length < CHECKPOINT_WRITE_BATCH_ROWS * 5) break;
    after = batch[batch.length - 1].bucket;
  }
  return { heads, balances, rows };
}

/** The head and balance rows filed in `buckets`, and those alone. */
export async function loadStateBuckets(reader: SqlReader, buckets: readonly number[]): Promise<StateBucketRows> {
  const rows: StateBucketRows = { heads: [], balances: [] };
  for (let start = 0; start < buckets.length; start += CHECKPOINT_WRITE_BATCH_ROWS) {
    const slice = buckets.slice(start, start + CHECKPOINT_WRITE_BATCH_ROWS);
    const heads: Array<{ stream_id: string; bucket: number; version: number; last_hash: string }> = await reader.query(
      `SELECT stream_id, bucket, version, last_hash FROM ledger_verify_state_heads WHERE bucket = ANY($1::int[])`,
      [slice],
    );
    for (const row of heads)
      rows.heads.push({
        streamId: row.stream_id,
        bucket: row.bucket,
        head: { version: row.version, hash: row.last_hash },
      });
    const balances: Array<{ account: string; bucket: number; balance_minor: string }> = await reader.query(
      `SELECT account, bucket, balance_minor::text FROM ledger_verify_state_balances WHERE bucket = ANY($1::int[])`,
      [slice],
    );
    for (const row of balances)
      rows.balances.push({ account: row.account, bucket: row.bucket, balanceMinor: Number(row.balance_minor) });
  }
  return rows;
}

/**
 * Writes a checkpoint chained to the newest one, in one transaction under an advisory lock. A FULL one replaces the
 * state rows whole; a SINCE one writes only the rows and bucket digests that moved (ADR 0122), and is refused (nothing
 * is written) when the one it continued is no longer the newest: another verify finished meanwhile, and its checkpoint
 * stands. A FULL one is always written, even behind a newer position or after a broken checkpoint: it re-proved the
 * whole history, and the chain is judged from the newest FULL checkpoint on.
 */
export async function writeCheckpoint(
  dataSource: DataSource,
  checkpoint: CheckpointToWrite,
  now: Date,
): Promise<CheckpointWrite> {
  return dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [CHECKPOINT_WRITE_LOCK]);
    const newest: Array<{ checkpoint_id: string; hash: string }> = await manager.query(
      `SELECT checkpoint_id::text, hash FROM ledger_verify_checkpoints
        ORDER BY ledger_verify_checkpoints.checkpoint_id DESC LIMIT 1`,
    );
    const previous = newest[0] ?? null;
    if (checkpoint.continues !== null && Number(previous?.checkpoint_id) !== checkpoint.continues)
      return { written: false, reason: `checkpoint ${checkpoint.continues} is no longer the newest` };
    const digests =
      checkpoint.kind === 'FULL' ? await writeFullState(manager, checkpoint) : await writeMoves(manager, checkpoint);
    const fields = {
      kind: checkpoint.kind,
      commitPosition: checkpoint.commitPosition,
      createdAt: now.toISOString(),
      eventsVerified: checkpoint.eventsVerified,
      ...digests,
      previousHash: previous?.hash ?? null,
    };
    const hash = checkpointHash(fields);
    const inserted: Array<{ checkpoint_id: string }> = await manager.query(
      `INSERT INTO ledger_verify_checkpoints
         (kind, commit_position, created_at, events_verified, bucket_count, balances_digest, heads_digest,
          previous_hash, hash)
       VALUES ($1, $2::bigint, $3::timestamptz, $4, $5, $6, $7, $8, $9) RETURNING checkpoint_id::text`,
      [
        fields.kind,
        fields.commitPosition,
        fields.createdAt,
        fields.eventsVerified,
        fields.bucketCount,
        fields.balancesDigest,
        fields.headsDigest,
        fields.previousHash,
        hash,
      ],
    );
    return { written: true, header: { checkpointId: Number(inserted[0].checkpoint_id), ...fields, hash } };
  });
}

type HeaderDigests = Pick<CheckpointHeader, 'bucketCount' | 'balancesDigest' | 'headsDigest'>;

/**
 * Makes the state rows the checkpoint's state. Most of a FULL checkpoint's rows are those the previous checkpoints
 * left (a weekly full verify after daily since-checkpoint ones), so each row is upserted only where it differs, and a
 * row the new state no longer holds is found by counting: once every new key is present, the table holds exactly the
 * new state when it has as many rows. Only when it has more (an emptied balance that no SINCE checkpoint removed, a
 * stream gone from a tampered store) is every row replaced. Updates and DELETE, not TRUNCATE or a table swap: a
 * since-checkpoint verify whose snapshot began before this commits must still see the rows it began with (neither is
 * MVCC-safe), and its own write is then refused.
 */
async function writeFullState(manager: EntityManager, checkpoint: FullCheckpointToWrite): Promise<HeaderDigests> {
  const balances = Object.entries(checkpoint.balances).filter(([, balance]) => balance !== 0);
  const bucketCount = bucketCountFor(Math.max(checkpoint.heads.size, balances.length));
  const headBuckets = intoBuckets(checkpoint.heads, bucketCount);
  const balanceBuckets = intoBuckets(balances, bucketCount);
  const headDigests = headBuckets.map(bucketHeadsDigest);
  const balanceDigests = balanceBuckets.map(bucketBalancesDigest);
  const heads = headBuckets.flatMap((rows, bucket) => rows.map(([streamId, head]) => ({ streamId, bucket, head })));
  const balanceRows = balanceBuckets.flatMap((rows, bucket) =>
    rows.map(([account, balanceMinor]) => ({ account, bucket, balanceMinor })),
  );
  const digests = headDigests.map((headsDigest, bucket) => ({
    bucket,
    headsDigest,
    balancesDigest: balanceDigests[bucket],
  }));
  await upsertHeads(manager, heads);
  await upsertBalances(manager, balanceRows);
  await upsertBucketDigests(manager, digests);
  const stale = await rowsBeyond(manager, {
    ledger_verify_state_heads: heads.length,
    ledger_verify_state_balances: balanceRows.length,
    ledger_verify_state_buckets: digests.length,
  });
  if (stale) {
    await manager.query('DELETE FROM ledger_verify_state_heads');
    await manager.query('DELETE FROM ledger_verify_state_balances');
    await manager.query('DELETE FROM ledger_verify_state_buckets');
    await upsertHeads(manager, heads);
    await upsertBalances(manager, balanceRows);
    await upsertBucketDigests(manager, digests);
  }
  return { bucketCount, balancesDigest: digestOfBuckets(balanceDigests), headsDigest: digestOfBuckets(headDigests) };
}

/** Whether any state table holds more rows than the new state gives it (each of whose keys it holds already). */
async function rowsBeyond(manager: EntityManager, wanted: Record<string, number>): Promise<boolean> {
  const tables = Object.keys(wanted);
  // One row with a column per table: the rows of a UNION ALL may come in any order (a parallel append).
  const [counted]: Array<Record<string, string>> = await manager.query(
    `SELECT ${tables.map((table) => `(SELECT count(*) FROM ${table})::text AS ${table}`).join(', ')}`,
  );
  return tables.some((table) => Number(counted[table]) > wanted[table]);
}

/** A SINCE checkpoint's rows: the moved heads and balances and the changed buckets' digests, and nothing else. */
async function writeMoves(manager: EntityManager, checkpoint: SinceCheckpointToWrite): Promise<HeaderDigests> {
  const { bucketCount } = checkpoint;
  await upsertHeads(
    manager,
    [...checkpoint.movedHeads].map(([streamId, head]) => ({ streamId, bucket: bucketOf(streamId, bucketCount), head })),
  );
  const moved = Object.entries(checkpoint.movedBalances);
  await upsertBalances(
    manager,
    moved
      .filter(([, balanceMinor]) => balanceMinor !== 0)
      .map(([account, balanceMinor]) => ({ account, bucket: bucketOf(account, bucketCount), balanceMinor })),
  );
  const emptied = moved.filter(([, balanceMinor]) => balanceMinor === 0).map(([account]) => account);
  for (let start = 0; start < emptied.length; start += CHECKPOINT_WRITE_BATCH_ROWS)
    await manager.query('DELETE FROM ledger_verify_state_balances WHERE account = ANY($1::text[])', [
      emptied.slice(start, start + CHECKPOINT_WRITE_BATCH_ROWS),
    ]);
  await upsertBucketDigests(
    manager,
    [...checkpoint.changedBuckets].map(([bucket, digests]) => ({ bucket, ...digests })),
  );
  return { bucketCount, balancesDigest: checkpoint.balancesDigest, headsDigest: checkpoint.headsDigest };
}

/** A state table as `writeWhereDiffering` fills it: its key column first, then the others, with their SQL types. */
interface StateTable {
  name: string;
  columns: ReadonlyArray<readonly [name: string, sqlType: string]>;
}

const STATE_HEADS: StateTable = {
  name: 'ledger_verify_state_heads',
  columns: [
    ['stream_id', 'text'],
    ['bucket', 'int'],
    ['version', 'int'],
    ['last_hash', 'text'],
  ],
};
const STATE_BALANCES: StateTable = {
  name: 'ledger_verify_state_balances',
  columns: [
    ['account', 'text'],
    ['bucket', 'int'],
    ['balance_minor', 'bigint'],
  ],
};
const STATE_BUCKETS: StateTable = {
  name: 'ledger_verify_state_buckets',
  columns: [
    ['bucket', 'int'],
    ['heads_digest', 'text'],
    ['balances_digest', 'text'],
  ],
};

/**
 * Writes each given row (its columns' values in `table.columns`' order) where the table holds another value or no
 * row under its key, and leaves an equal row untouched. An UPDATE that matches only the rows that differ and an
 * INSERT of the missing keys, not `INSERT … ON CONFLICT DO UPDATE … WHERE`: that one locks every conflicting row,
 * equal or not, and so writes every row's page again. Writers never race here: the checkpoint's advisory lock
 * lets one write at a time.
 */
async function writeWhereDiffering(
  manager: EntityManager,
  table: StateTable,
  rows: ReadonlyArray<readonly unknown[]>,
): Promise<void> {
  const names = table.columns.map(([name]) => name);
  const [key, ...values] = names;
  const sql = `
    WITH given (${names.join(', ')}) AS (
      SELECT * FROM unnest(${table.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
    ), changed AS (
      UPDATE ${table.name} AS held SET ${values.map((name) => `${name} = given.${name}`).join(', ')}
        FROM given
       WHERE held.${key} = given.${key}
         AND (${values.map((name) => `held.${name}`).join(', ')}) IS DISTINCT FROM (${values
           .map((name) => `given.${name}`)
           .join(', ')})
    )
    INSERT INTO ${table.name} (${names.join(', ')})
    SELECT * FROM given WHERE NOT EXISTS (SELECT 1 FROM ${table.name} AS held WHERE held.${key} = given.${key})`;
  for (let start = 0; start < rows.length; start += CHECKPOINT_WRITE_BATCH_ROWS) {
    const slice = rows.slice(start, start + CHECKPOINT_WRITE_BATCH_ROWS);
    await manager.query(
      sql,
      names.map((_, column) => slice.map((row) => row[column])),
    );
  }
}

async function upsertHeads(
  manager: EntityManager,
  rows: ReadonlyArray<{ streamId: string; bucket: number; head: StreamHead }>,
): Promise<void> {
  await writeWhereDiffering(
    manager,
    STATE_HEADS,
    rows.map((row) => [row.streamId, row.bucket, row.head.version, row.head.hash]),
  );
}

async function upsertBalances(
  manager: EntityManager,
  rows: ReadonlyArray<{ account: string; bucket: number; balanceMinor: number }>,
): Promise<void> {
  await writeWhereDiffering(
    manager,
    STATE_BALANCES,
    rows.map((row) => [row.account, row.bucket, String(row.balanceMinor)]),
  );
}

async function upsertBucketDigests(
  manager: EntityManager,
  rows: ReadonlyArray<{ bucket: number } & BucketDigests>,
): Promise<void> {
  await writeWhereDiffering(
    manager,
    STATE_BUCKETS,
    rows.map((row) => [row.bucket, row.headsDigest, row.balancesDigest]),
  );
}
