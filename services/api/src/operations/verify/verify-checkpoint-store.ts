import type { DataSource } from 'typeorm';
import type { SqlReader } from '../../platform/database/read-only-snapshot';
import type { StreamHead } from '../../platform/event-store/hash-chain-continuation';
import {
  balancesDigest,
  type CheckpointHeader,
  type CheckpointKind,
  type CheckpointState,
  checkpointHash,
  headsDigest,
} from './verify-checkpoint';

/** Rows written per statement of a checkpoint's balances and heads; bounds each statement's parameters. */
const CHECKPOINT_WRITE_BATCH_ROWS = 10_000;

/** One writer of checkpoints at a time, so that two verifies finishing together cannot both chain to the same one. */
const CHECKPOINT_WRITE_LOCK = 'kupa ledger verify checkpoint';

interface HeaderRow {
  checkpoint_id: string;
  kind: CheckpointKind;
  commit_position: string;
  created_at: string;
  events_verified: string;
  balances_digest: string;
  heads_digest: string;
  previous_hash: string | null;
  hash: string;
}

/** What a verify asks to record: the position it verified up to and the state there. */
export interface CheckpointToWrite extends CheckpointState {
  kind: CheckpointKind;
  commitPosition: string;
  eventsVerified: number;
  /** For a SINCE checkpoint: the checkpoint it continued, which must still be the newest when it is written. */
  continues: number | null;
}

export type CheckpointWrite = { written: true; header: CheckpointHeader } | { written: false; reason: string };

/** Every checkpoint header in id order (a few a day: a year of them is a small read). */
export async function loadCheckpointHeaders(reader: SqlReader): Promise<CheckpointHeader[]> {
  const rows: HeaderRow[] = await reader.query(
    `SELECT checkpoint_id::text, kind, commit_position::text, events_verified::text, balances_digest, heads_digest,
            previous_hash, hash,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
       FROM ledger_verify_checkpoints ORDER BY checkpoint_id`,
  );
  return rows.map((row) => ({
    checkpointId: Number(row.checkpoint_id),
    kind: row.kind,
    commitPosition: row.commit_position,
    createdAt: row.created_at,
    eventsVerified: Number(row.events_verified),
    balancesDigest: row.balances_digest,
    headsDigest: row.heads_digest,
    previousHash: row.previous_hash,
    hash: row.hash,
  }));
}

/** A checkpoint's balances and stream heads, as stored (their digests are for the caller to check). */
export async function loadCheckpointState(reader: SqlReader, checkpointId: number): Promise<CheckpointState> {
  const balanceRows: Array<{ account: string; balance_minor: string }> = await reader.query(
    `SELECT account, balance_minor::text FROM ledger_verify_checkpoint_balances WHERE checkpoint_id = $1`,
    [checkpointId],
  );
  const balances: Record<string, number> = {};
  for (const row of balanceRows) balances[row.account] = Number(row.balance_minor);
  const heads = new Map<string, StreamHead>();
  let after = '';
  for (;;) {
    const rows: Array<{ stream_id: string; version: number; last_hash: string }> = await reader.query(
      `SELECT stream_id, version, last_hash FROM ledger_verify_checkpoint_heads
        WHERE checkpoint_id = $1 AND stream_id > $2 ORDER BY stream_id LIMIT $3`,
      [checkpointId, after, CHECKPOINT_WRITE_BATCH_ROWS],
    );
    for (const row of rows) heads.set(row.stream_id, { version: row.version, hash: row.last_hash });
    if (rows.length < CHECKPOINT_WRITE_BATCH_ROWS) break;
    after = rows[rows.length - 1].stream_id;
  }
  return { balances, heads };
}

/**
 * Writes a checkpoint chained to the newest one, in one transaction under an advisory lock, and drops the balance and
 * head rows of the checkpoints before it (their headers stay, for the chain). A SINCE checkpoint is
 * refused (nothing is written) when the one it continued is no longer the newest: another verify finished meanwhile,
 * and its checkpoint stands. A FULL one is always written, even behind a newer position or after a broken checkpoint:
 * it re-proved the whole history, and the chain is judged from the newest FULL checkpoint on.
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
        ORDER BY checkpoint_id DESC LIMIT 1`,
    );
    const previous = newest[0] ?? null;
    if (checkpoint.continues !== null && Number(previous?.checkpoint_id) !== checkpoint.continues)
      return { written: false, reason: `checkpoint ${checkpoint.continues} is no longer the newest` };
    const fields = {
      kind: checkpoint.kind,
      commitPosition: checkpoint.commitPosition,
      createdAt: now.toISOString(),
      eventsVerified: checkpoint.eventsVerified,
      balancesDigest: balancesDigest(checkpoint.balances),
      headsDigest: headsDigest(checkpoint.heads),
      previousHash: previous?.hash ?? null,
    };
    const hash = checkpointHash(fields);
    const inserted: Array<{ checkpoint_id: string }> = await manager.query(
      `INSERT INTO ledger_verify_checkpoints
         (kind, commit_position, created_at, events_verified, balances_digest, heads_digest, previous_hash, hash)
       VALUES ($1, $2::bigint, $3::timestamptz, $4, $5, $6, $7, $8) RETURNING checkpoint_id::text`,
      [
        fields.kind,
        fields.commitPosition,
        fields.createdAt,
        fields.eventsVerified,
        fields.balancesDigest,
        fields.headsDigest,
        fields.previousHash,
        hash,
      ],
    );
    const checkpointId = Number(inserted[0].checkpoint_id);
    const accounts = Object.keys(checkpoint.balances).filter((account) => checkpoint.balances[account] !== 0);
    for (let start = 0; start < accounts.length; start += CHECKPOINT_WRITE_BATCH_ROWS) {
      const slice = accounts.slice(start, start + CHECKPOINT_WRITE_BATCH_ROWS);
      await manager.query(
        `INSERT INTO ledger_verify_checkpoint_balances (checkpoint_id, account, balance_minor)
         SELECT $1, account, balance FROM unnest($2::text[], $3::bigint[]) AS given(account, balance)`,
        [checkpointId, slice, slice.map((account) => String(checkpoint.balances[account]))],
      );
    }
    const streamIds = [...checkpoint.heads.keys()];
    for (let start = 0; start < streamIds.length; start += CHECKPOINT_WRITE_BATCH_ROWS) {
      const slice = streamIds.slice(start, start + CHECKPOINT_WRITE_BATCH_ROWS);
      const heads = slice.map((streamId) => checkpoint.heads.get(streamId) as StreamHead);
      await manager.query(
        `INSERT INTO ledger_verify_checkpoint_heads (checkpoint_id, stream_id, version, last_hash)
         SELECT $1, stream_id, version, last_hash
           FROM unnest($2::text[], $3::int[], $4::text[]) AS given(stream_id, version, last_hash)`,
        [checkpointId, slice, heads.map((head) => head.version), heads.map((head) => head.hash)],
      );
    }
    // Only the newest checkpoint's rows are ever continued from; the older ones' headers keep the chain (their hashes
    // cover the digests, not the rows), so their rows go, or a daily checkpoint would add a row per stream each day.
    await manager.query('DELETE FROM ledger_verify_checkpoint_heads WHERE checkpoint_id < $1', [checkpointId]);
    await manager.query('DELETE FROM ledger_verify_checkpoint_balances WHERE checkpoint_id < $1', [checkpointId]);
    return { written: true, header: { checkpointId, ...fields, hash } };
  });
}
