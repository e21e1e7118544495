import type { DataSource } from 'typeorm';
import { databaseUrlOf, type SqlReader } from '../database/read-only-snapshot';
import { runWorkerThread } from '../threads/worker-thread';
import { chainHash } from './event-hash';
import { COMMIT_OF_EVENT } from './event-rows';

/** Events read per round trip while verifying; bounds memory on a store of any size. */
export const VERIFY_BATCH_SIZE = 2000;

export type HashChainProblemKind =
  'hash-mismatch' | 'version-gap' | 'head-mismatch' | 'commit-missing' | 'commit-order' | 'event-id-duplicate';

/** Events named per duplicated event id, at most; beyond them the report only has too many to list. */
export const DUPLICATE_EVENT_IDS_LISTED = 1000;

/** The first thing wrong in one stream; later events of that stream are not judged (they all chain to it). */
export interface HashChainProblem {
  streamId: string;
  streamVersion: number;
  kind: HashChainProblemKind;
  message: string;
}

export interface HashChainReport {
  ok: boolean;
  streamsChecked: number;
  eventsChecked: number;
  problems: HashChainProblem[];
  /**
   * When asked for a checkpoint's position: each stream's head at it (the last event with a commit position at or
   * before it), as parallel columns so that a worker hands millions of them back cheaply (ADR 0111).
   */
  headsAtCheckpoint: StreamHeads | null;
}

/** Stream heads as parallel columns: `streamIds[i]` is at `versions[i]`, whose event's hash is `hashes[i]`. */
export interface StreamHeads {
  streamIds: string[];
  versions: number[];
  hashes: string[];
}

export interface VerifiedRow {
  /** Null for an event no commit numbered: no reader of the whole store would ever see it. */
  commit_position: string | null;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: unknown;
  hash: string;
}

export interface StreamState {
  streamId: string;
  version: number;
  computedHash: string | null;
  broken: boolean;
  /**
   * The commit position of the stream's last event so far: each version's must be as high or higher (docs/adr/0061;
   * versions appended together share their commit, ADR 0128).
   */
  commitPosition: bigint;
  /** Whether a commit problem was reported for the stream already (one per stream, like the chain's). */
  commitProblem: boolean;
  /** The head at the checkpoint's position, when one was asked for. */
  checkpointVersion: number;
  checkpointHash: string | null;
}

/**
 * Walks every stream in version order and recomputes its hash chain from the stored events: the first event whose
 * stored hash differs from the recomputed one names the edit; versions must run 1, 2, 3… without gaps; and the
 * stream's head row must agree with its last event. Runs in one REPEATABLE READ snapshot, so appends made while it
 * runs neither show up half-way nor cause false alarms.
 *
 * It runs in a worker thread with a connection of its own to the data source's database, so that parsing every
 * event, writing its canonical JSON and hashing it run on another core than the caller's other work (ADR 0043).
 */
export function verifyStreamHashes(
  dataSource: DataSource,
  checkpointPosition: string | null = null,
): Promise<HashChainReport> {
  const request: HashChainWorkerRequest = { databaseUrl: databaseUrlOf(dataSource), checkpointPosition };
  return runWorkerThread({ directory: __dirname, name: 'hash-chain.worker' }, request);
}

/** What the parent hands the hash chain worker. */
export interface HashChainWorkerRequest {
  databaseUrl: string;
  /** When set, the report carries every stream's head at this commit position. */
  checkpointPosition: string | null;
}

/** The check of `verifyStreamHashes` inside the snapshot `reader` holds; the worker runs it. */
export async function verifyWithin(
  reader: SqlReader,
  checkpointPosition: string | null = null,
): Promise<HashChainReport> {
  const checkpoint = checkpointPosition === null ? null : BigInt(checkpointPosition);
  const heads: StreamHeads | null = checkpoint === null ? null : { streamIds: [], versions: [], hashes: [] };
  const keepHead = (stream: StreamState): void => {
    if (heads === null || stream.checkpointVersion === 0 || stream.checkpointHash === null) return;
    heads.streamIds.push(stream.streamId);
    heads.versions.push(stream.checkpointVersion);
    heads.hashes.push(stream.checkpointHash);
  };
  const problems: HashChainProblem[] = [];
  let eventsChecked = 0;
  let streamsChecked = 0;
  let current: StreamState | null = null;
  const finished: StreamState[] = [];
  let after: { streamId: string; version: number } = { streamId: '', version: 0 };

  for (;;) {
    const rows: VerifiedRow[] = await reader.query(
      `SELECT events.stream_id, events.stream_version, events.type, events.data, events.metadata, events.hash,
              event_commit.commit_position::text AS commit_position
         FROM events LEFT JOIN LATERAL ${COMMIT_OF_EVENT} ON true
        WHERE (events.stream_id, events.stream_version) > ($1, $2)
        ORDER BY events.stream_id, events.stream_version LIMIT $3`,
      [after.streamId, after.version, VERIFY_BATCH_SIZE],
    );
    for (const row of rows) {
      eventsChecked += 1;
      if (current === null || current.streamId !== row.stream_id) {
        if (current) finished.push(current);
        current = {
          streamId: row.stream_id,
          version: 0,
          computedHash: null,
          broken: false,
          commitPosition: 0n,
          commitProblem: false,
          checkpointVersion: 0,
          checkpointHash: null,
        };
        streamsChecked += 1;
      }
      const state: StreamState = current;
      checkCommit(state, row, problems);
      if (state.broken) continue;
      const computed = stepChain(state, row, problems, '');
      if (computed === null) continue;
      if (checkpoint !== null && row.commit_position !== null && BigInt(row.commit_position) <= checkpoint) {
        state.checkpointVersion = row.stream_version;
        state.checkpointHash = computed;
      }
    }
    // A full batch may stop in the middle of a stream: that stream stays open until a later batch ends it.
    const more = rows.length === VERIFY_BATCH_SIZE;
    if (!more && current) finished.push(current);
    await checkHeads(reader, finished, problems);
    finished.forEach(keepHead);
    finished.length = 0;
    if (!more) break;
    const last = rows[rows.length - 1];
    after = { streamId: last.stream_id, version: last.stream_version };
  }

  const headless: { stream_id: string; version: number }[] = await reader.query(
    `SELECT stream_id, version FROM streams s
      WHERE version > 0 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = s.stream_id)`,
  );
  for (const row of headless) {
    problems.push(
      problem(row.stream_id, 1, 'version-gap', `stream row says version ${row.version} but the stream has no events`),
    );
  }
  problems.push(...(await duplicatedEventIds(reader)));
  problems.sort((left, right) => (left.streamId < right.streamId ? -1 : left.streamId > right.streamId ? 1 : 0));
  return {
    ok: problems.length === 0,
    streamsChecked,
    eventsChecked,
    problems,
    headsAtCheckpoint: problems.length === 0 ? heads : null,
  };
}

/**
 * Every event's id names it alone: Kafka consumers drop an id they have seen (ADR 0061). No index refuses a second
 * one (ADR 0128), so this is where a copied event (a restore or import that copies rows) is found: every event whose
 * id an event earlier in (stream, version) order carries already. One scan of the events, in the snapshot of the walk.
 */
export async function duplicatedEventIds(reader: SqlReader): Promise<HashChainProblem[]> {
  const rows: { event_id: string; stream_id: string; stream_version: number; first: string }[] = await reader.query(
    `SELECT event_id::text AS event_id, stream_id, stream_version, first FROM (
       SELECT events.event_id, events.stream_id, events.stream_version,
              row_number() OVER same_id AS n, first_value(events.stream_id || ' v' || events.stream_version) OVER same_id AS first
         FROM events
        WHERE events.event_id IN (SELECT event_id FROM events GROUP BY event_id HAVING count(*) > 1)
       WINDOW same_id AS (PARTITION BY events.event_id ORDER BY events.stream_id, events.stream_version)) AS copies
      WHERE n > 1 ORDER BY stream_id, stream_version LIMIT $1`,
    [DUPLICATE_EVENT_IDS_LISTED],
  );
  return rows.map((row) =>
    problem(row.stream_id, row.stream_version, 'event-id-duplicate', `event id ${row.event_id} is also ${row.first}'s`),
  );
}

/**
 * Every event has a commit position, and a stream's versions have never falling ones: readers of the whole store follow commit
 * positions, so an event without one is never read, and one out of order would reach consumers out of version order.
 */
/**
 * One event's step along its stream's chain: it must be the next version and carry the hash recomputed from the
 * previous one. A break is recorded as a problem and ends the stream's check (`broken`); answers the new hash, or null
 * when the stream broke here. `where` names the start in a gap's message (" after the checkpoint").
 */
export function stepChain(
  state: StreamState,
  row: VerifiedRow,
  problems: HashChainProblem[],
  where: string,
): string | null {
  if (row.stream_version !== state.version + 1) {
    problems.push(
      problem(
        state.streamId,
        state.version + 1,
        'version-gap',
        `expected version ${state.version + 1}${where}, found ${row.stream_version}`,
      ),
    );
    state.broken = true;
    return null;
  }
  const computed = chainHash(state.computedHash, {
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
  });
  if (computed !== row.hash) {
    problems.push(
      problem(state.streamId, row.stream_version, 'hash-mismatch', 'stored event does not match its hash chain'),
    );
    state.broken = true;
    return null;
  }
  state.version = row.stream_version;
  state.computedHash = computed;
  return computed;
}

export function checkCommit(state: StreamState, row: VerifiedRow, problems: HashChainProblem[]): void {
  if (state.commitProblem) return;
  if (row.commit_position === null) {
    problems.push(problem(state.streamId, row.stream_version, 'commit-missing', 'event has no commit position'));
    state.commitProblem = true;
    return;
  }
  const position = BigInt(row.commit_position);
  if (position < state.commitPosition) {
    problems.push(
      problem(
        state.streamId,
        row.stream_version,
        'commit-order',
        `commit position ${position} is before the previous version's ${state.commitPosition}`,
      ),
    );
    state.commitProblem = true;
    return;
  }
  state.commitPosition = position;
}

/** The head row (version, last hash) of every intact stream must describe its last event. */
export async function checkHeads(
  reader: SqlReader,
  streams: StreamState[],
  problems: HashChainProblem[],
): Promise<void> {
  const intact = streams.filter((stream) => !stream.broken);
  if (intact.length === 0) return;
  const rows: { stream_id: string; version: number; last_hash: string | null }[] = await reader.query(
    'SELECT stream_id, version, last_hash FROM streams WHERE stream_id = ANY($1::text[])',
    [intact.map((stream) => stream.streamId)],
  );
  const heads = new Map(rows.map((row) => [row.stream_id, row]));
  for (const stream of intact) {
    const head = heads.get(stream.streamId);
    if (!head || head.version !== stream.version || head.last_hash !== stream.computedHash) {
      problems.push(
        problem(
          stream.streamId,
          stream.version,
          'head-mismatch',
          `stream row is at version ${head?.version ?? 'none'}, events end at ${stream.version}`,
        ),
      );
    }
  }
}

export function problem(
  streamId: string,
  streamVersion: number,
  kind: HashChainProblemKind,
  message: string,
): HashChainProblem {
  return { streamId, streamVersion, kind, message: `${streamId} v${streamVersion}: ${message}` };
}
