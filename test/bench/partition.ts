import pg from 'pg';
import { type Api, deposit } from './http.ts';
import type { SeedUser } from './seed-ledger.ts';
import { round, runConcurrently, summarise } from './stats.ts';

/** Clients appending at once while the figures are taken and while the table is partitioned. */
const APPEND_CLIENTS = 8;
/** `readAll`'s page, as a processor reads: the events after a commit position, in commit order. */
const READ_ALL_PAGE = 1000;
/**
 * The partitions' width here: the live conversion puts the whole seeded history below the first boundary whatever
 * the width, so a width smaller than the default only makes the appends after it land in partitions of their own.
 */
const BENCH_PARTITION_SIZE = 1_000_000;

export interface PartitionBenchContext {
  databaseUrl: string;
  api: Api;
  admin: () => Promise<string>;
  users: SeedUser[];
  durationMs: number;
  kupa: (args: string[]) => Promise<{ code: number; json: unknown; wallMs: number }>;
}

/**
 * ADR 0114 at scale: the same four figures on the plain `events` table and then on the partitioned one (append rate
 * at `APPEND_CLIENTS` clients, a whole-store `readAll` walk, `kupa ledger verify`, `kupa projections rebuild
 * payments`), and between them `kupa events partition` with appends going on, whose latencies say whether any lock
 * held them back.
 */
export async function measurePartitioning(context: PartitionBenchContext): Promise<Record<string, unknown>> {
  const plain = await figures(context, 'plain');
  const admin = await context.admin();
  let next = 0;
  let appending = true;
  const latenciesMs: number[] = [];
  let failures = 0;
  const appenders = Array.from({ length: APPEND_CLIENTS }, async () => {
    while (appending) {
      const user = context.users[next++ % context.users.length];
      const begun = performance.now();
      try {
        await deposit(context.api, admin, user.userUuid, 1, 'bench: during partitioning');
        latenciesMs.push(performance.now() - begun);
      } catch {
        failures += 1;
      }
    }
  });
  const run = await context.kupa(['events', 'partition', '--size', String(BENCH_PARTITION_SIZE), '--json']);
  appending = false;
  await Promise.all(appenders);
  if (run.code !== 0) throw new Error(`kupa events partition failed: ${JSON.stringify(run.json)}`);
  const report = run.json as { validateMs: number; swapMs: number; lockRetries: number; partitions: unknown[] };
  const during = {
    commandWallMs: Math.round(run.wallMs),
    validateMs: report.validateMs,
    swapMs: report.swapMs,
    lockRetries: report.lockRetries,
    partitions: report.partitions,
    appendsMeanwhile: { clients: APPEND_CLIENTS, failures, ...summarise(latenciesMs) },
  };
  const partitioned = await figures(context, 'partitioned');
  return { partitionSize: BENCH_PARTITION_SIZE, plain, during, partitioned };
}

async function figures(context: PartitionBenchContext, label: string): Promise<Record<string, unknown>> {
  const admin = await context.admin();
  let next = 0;
  const appends = await runConcurrently(APPEND_CLIENTS, context.durationMs, async () => {
    const user = context.users[next++ % context.users.length];
    await deposit(context.api, admin, user.userUuid, 1, `bench: appends, ${label}`);
  });
  const readAll = await walkReadAll(context.databaseUrl);
  const verify = await context.kupa(['ledger', 'verify', '--json']);
  const verified = verify.json as { ok: boolean; counts: { events: number }; totalMs: number };
  const rebuild = await context.kupa(['projections', 'rebuild', 'payments', '--json']);
  const rebuilt = rebuild.json as { eventsReplayed: number; elapsedMs: number; eventsPerSecond: number };
  return {
    appends: { clients: APPEND_CLIENTS, perSecond: appends.perSecond, ...summarise(appends.latenciesMs) },
    readAll,
    verify: {
      ok: verified.ok,
      events: verified.counts.events,
      ms: Math.round(verified.totalMs),
      eventsPerSecond: Math.round((verified.counts.events * 1000) / verified.totalMs),
    },
    rebuildPayments: {
      events: rebuilt.eventsReplayed,
      ms: rebuilt.elapsedMs,
      eventsPerSecond: rebuilt.eventsPerSecond,
    },
  };
}

/** Reads the whole store page by page in commit order, with the statement `PostgresEventStore.readAll` runs (ADR 0128). */
async function walkReadAll(databaseUrl: string): Promise<{ events: number; ms: number; eventsPerSecond: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    let after = '0';
    let events = 0;
    for (;;) {
      const { rows } = await client.query<{ commit_position: string }>(
        `SELECT events.global_position::text, events.event_id::text, events.stream_id, events.stream_version,
                events.type, events.data, events.metadata, events.recorded_at, events.hash,
                window_commits.commit_position::text AS commit_position
           FROM (SELECT counted.commit_position, counted.transaction_id, counted.first_position, counted.last_position
                   FROM (SELECT c.commit_position, c.transaction_id, c.first_position, c.last_position,
                                sum(c.event_count) OVER (ORDER BY c.commit_position) - c.event_count AS events_before
                           FROM event_commits c WHERE c.commit_position > $1::bigint
                          ORDER BY c.commit_position LIMIT $2::int) AS counted
                  WHERE counted.events_before < $2::int) AS window_commits
           CROSS JOIN LATERAL (SELECT * FROM events
                                WHERE events.global_position BETWEEN window_commits.first_position
                                                                 AND window_commits.last_position
                                  AND events.transaction_id = window_commits.transaction_id OFFSET 0) AS events
          ORDER BY window_commits.commit_position, events.global_position`,
        [after, READ_ALL_PAGE],
      );
      if (rows.length === 0) break;
      events += rows.length;
      after = rows[rows.length - 1].commit_position;
    }
    const ms = performance.now() - started;
    return { events, ms: Math.round(ms), eventsPerSecond: round((events * 1000) / ms, 0) };
  } finally {
    await client.end();
  }
}
