import pg from 'pg';
import { round } from './stats.ts';

/**
 * How long the database's sessions wait for the write-ahead log to reach the disk while a timed phase runs. Every
 * command ends in a COMMIT that waits for its WAL to be flushed (`synchronous_commit = on`); when one flush is slow
 * every session committing meanwhile waits with it, and a p99 can be no lower than such a stall however fast the
 * command path is. Sampled from `pg_stat_activity` every quarter second, as the raw commits and the HTTP floor are
 * measured beside the commands: a figure about the machine, so that a latency row is read against it.
 */
export interface CommitWaits {
  samples: number;
  /** Of all the samples' sessions that were doing something, the share waiting to write or flush the WAL. */
  walWaitShare: number;
  /** Samples in which at least two sessions, and at least half of the busy ones, waited for the WAL. */
  stalledSamples: number;
  /**
   * The longest a statement had been running while it waited for the WAL, in any sample (a COMMIT, or a raw commit's
   * autocommitted INSERT): a lower bound for the slowest flush of the phase.
   */
  longestWalWaitMs: number;
}

const SAMPLE_EVERY_MS = 250;

/** Wait events of a session writing or flushing the WAL, or waiting for another session's flush to cover its own. */
const WAL_WAIT_EVENTS = ['WALWrite', 'WALSync', 'WALInsert', 'WALBufMapping'];

const SAMPLE_SQL = `
  SELECT count(*)::int AS busy,
         count(*) FILTER (WHERE wait_event = ANY($1::text[]))::int AS waiting_for_wal,
         coalesce(max(extract(epoch FROM clock_timestamp() - state_change) * 1000)
                    FILTER (WHERE wait_event = ANY($1::text[])), 0)::float8 AS longest_wal_wait_ms
    FROM pg_stat_activity
   WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`;

/**
 * Runs one timed phase while sampling, on a connection of its own so that the sampler never queues behind the phase;
 * answers the phase's result and the waits seen while it ran.
 */
export async function withCommitWaits<T>(
  databaseUrl: string,
  phase: () => Promise<T>,
): Promise<{ result: T; commitWaits: CommitWaits }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const totals = { samples: 0, busy: 0, waiting: 0, stalledSamples: 0, longestWalWaitMs: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      const { rows } = await client.query<{ busy: number; waiting_for_wal: number; longest_wal_wait_ms: number }>(
        SAMPLE_SQL,
        [WAL_WAIT_EVENTS],
      );
      const { busy, waiting_for_wal: waiting, longest_wal_wait_ms: walWaitMs } = rows[0];
      totals.samples += 1;
      totals.busy += busy;
      totals.waiting += waiting;
      if (waiting >= 2 && waiting * 2 >= busy) totals.stalledSamples += 1;
      totals.longestWalWaitMs = Math.max(totals.longestWalWaitMs, walWaitMs);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  // A failed sample surfaces when the phase ends (below), not as an unhandled rejection in the middle of it.
  sampling.catch(() => undefined);
  try {
    const result = await phase();
    running = false;
    await sampling;
    return {
      result,
      commitWaits: {
        samples: totals.samples,
        walWaitShare: totals.busy === 0 ? 0 : round(totals.waiting / totals.busy, 3),
        stalledSamples: totals.stalledSamples,
        longestWalWaitMs: round(totals.longestWalWaitMs, 1),
      },
    };
  } finally {
    running = false;
    await sampling.catch(() => undefined);
    await client.end();
  }
}
