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

/** Samples until `stop` is called; answers the summary. Its own connection, so that it never queues behind the phase. */
export async function sampleCommitWaits(databaseUrl: string): Promise<{ stop(): Promise<CommitWaits> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let samples = 0;
  let busyTotal = 0;
  let waitingTotal = 0;
  let stalledSamples = 0;
  let longestWalWaitMs = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ busy: number; waiting_for_wal: number; longest_wal_wait_ms: number }>(
        SAMPLE_SQL,
        [WAL_WAIT_EVENTS],
      );
      const { busy, waiting_for_wal: waiting, longest_wal_wait_ms: walWaitMs } = rows[0];
      samples += 1;
      busyTotal += busy;
      waitingTotal += waiting;
      if (waiting >= 2 && waiting * 2 >= busy) stalledSamples += 1;
      longestWalWaitMs = Math.max(longestWalWaitMs, walWaitMs);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      try {
        await loop;
      } finally {
        await client.end();
      }
      return {
        samples,
        walWaitShare: busyTotal === 0 ? 0 : round(waitingTotal / busyTotal, 3),
        stalledSamples,
        longestWalWaitMs: round(longestWalWaitMs, 1),
      };
    },
  };
}
