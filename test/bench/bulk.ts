import type { Client } from 'pg';
import { type Api, type BenchUser, Session, USER_PASSWORD } from './http.ts';
import { round, summarise } from './stats.ts';
import { count, createPlan, PENDING_PROVISIONING_JOBS, seedActiveSubscriptions, waitForNone } from './subscriptions.ts';

/**
 * The bulk operation scenario of the bench (docs/adr/0090-bulk-operations.md): an admin adds days to many ACTIVE
 * subscriptions as one batch, while other clients keep sending ledger commands. It answers how long the batch took
 * and, beside it, what the batch left to the other traffic: the commands' rate and latency while it ran against the
 * same traffic just before it, and the longest time in which no command of that traffic finished (a stall).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 500;
const PROGRESS_LOG_MS = 10_000;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export interface BulkOptions {
  api: Api;
  db: Client;
  admin: Session;
  subscriptions: number;
  owners: number;
  /** Concurrent purchases while seeding. */
  seedConcurrency: number;
  /** Funded, signed-in pairs of clients: the other traffic is transfers back and forth within each pair. */
  pairs: BenchUser[];
  /** Concurrent clients of the other traffic. */
  trafficClients: number;
  /** How long the other traffic is measured alone, before the batch. */
  baselineMs: number;
  days: number;
  /** The batch must be done by then, or the scenario fails. */
  timeoutMs: number;
}

interface Traffic {
  commandsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  count: number;
  errors: number;
  /** The failures by HTTP status (or `network`): an expired token or a rate limit must show, not hide in a count. */
  errorsByStatus: Record<string, number>;
  /** The longest time in which no command of the traffic finished. */
  longestGapMs: number;
}

/** Transfers within the pairs, closed-loop at `clients` clients, until `done` says so; a failure counts, not throws. */
async function transfersUntil(api: Api, pairs: Session[], clients: number, done: () => boolean): Promise<Traffic> {
  const latencies: number[] = [];
  let errors = 0;
  const errorsByStatus: Record<string, number> = {};
  let lastFinish = performance.now();
  let longestGapMs = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_unused, worker) => {
      const [left, right] = [pairs[worker * 2], pairs[worker * 2 + 1]];
      for (let iteration = 0; !done(); iteration += 1) {
        const [from, to] = iteration % 2 === 0 ? [left, right] : [right, left];
        const begun = performance.now();
        try {
          await api.call('POST', '/payments/transfer', await from.current(), { recipient: to.email, amount: 0.01 });
          latencies.push(performance.now() - begun);
        } catch (error) {
          errors += 1;
          const status = /answered (\d{3})/.exec(error instanceof Error ? error.message : '')?.[1] ?? 'network';
          errorsByStatus[status] = (errorsByStatus[status] ?? 0) + 1;
        }
        const now = performance.now();
        longestGapMs = Math.max(longestGapMs, now - lastFinish);
        lastFinish = now;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const latency = summarise(latencies);
  return {
    commandsPerSecond: round((latencies.length * 1000) / elapsedMs, 1),
    p50Ms: latency.p50Ms,
    p95Ms: latency.p95Ms,
    p99Ms: latency.p99Ms,
    count: latency.count,
    errors,
    errorsByStatus,
    longestGapMs: round(longestGapMs, 0),
  };
}

interface Batch {
  id: string;
  status: 'RUNNING' | 'COMPLETED';
  targetCount: number;
  doneCount: number;
  failedCount: number;
}

/**
 * 1. seeds `subscriptions` ACTIVE subscriptions on a one-dollar 12-month package through the real purchase path (the
 *    renewals' seeding), until the provisioning queue is empty;
 * 2. measures the other traffic alone for `baselineMs`;
 * 3. previews and starts an ADD_DAYS batch over the seeded subscriptions (the subscriptions list's `createdAt`
 *    filter around the seeding, so that the other scenarios' subscriptions are not reached), and keeps the same
 *    traffic running until `GET /bulk-operations/{id}` says COMPLETED, polling it as the console does;
 * 4. waits for the provisioning of the extensions, and checks that every seeded subscription ended `days` later.
 */
export async function measureBulkAddDays(options: BulkOptions): Promise<Record<string, unknown>> {
  const { api, db } = options;
  let admin = await options.admin.current();
  const planId = await createPlan(api, admin, { name: 'Bench bulk yearly', durationInMonths: 12, isRecurrent: false });
  const [{ now: seedFrom }] = (await db.query<{ now: Date }>('SELECT now() AS now')).rows;
  const seeded = await seedActiveSubscriptions({
    api,
    db,
    admin: options.admin,
    planId,
    subscriptions: options.subscriptions,
    owners: options.owners,
    seedConcurrency: options.seedConcurrency,
    prefix: 'bulk',
  });
  const [{ now: seedTo }] = (await db.query<{ now: Date }>('SELECT now() AS now')).rows;
  const endsBefore = await endsOf(db, planId);
  if (endsBefore.size !== options.subscriptions)
    throw new Error(`${endsBefore.size} of ${options.subscriptions} seeded subscriptions are ACTIVE`);

  // Access tokens live 15 minutes and the seeding takes about ten: the traffic signs in again just before its timed
  // phases, or its tokens age out in the middle of the batch and every transfer after that is a quick 401 rather than
  // a transfer. A batch longer than ten minutes (a loaded machine) signs each one in again once, inside the phase.
  const traffic = options.pairs.map((user) => new Session(api, user.email, USER_PASSWORD));
  // One after another: the sign-in limits hold a place per request until its answer says whether it failed, so a
  // hundred sign-ins at once from the bench's one address fill the per-address allowance and are refused with 429.
  for (const session of traffic) await session.refreshIfOlderThan(0);
  log(`  the other traffic alone: transfers at ${options.trafficClients} clients for ${options.baselineMs} ms`);
  const baselineEnd = performance.now() + options.baselineMs;
  const baseline = await transfersUntil(api, traffic, options.trafficClients, () => performance.now() > baselineEnd);

  admin = await options.admin.current();
  const selection = {
    action: 'ADD_DAYS',
    subscriptionFilter: {
      statuses: ['ACTIVE'],
      createdAt: { from: seedFrom.toISOString(), to: seedTo.toISOString() },
    },
  };
  const preview = await api.call<{ total: number }>('POST', '/bulk-operations/preview', admin, selection, [200]);
  if (preview.total !== options.subscriptions)
    throw new Error(`the preview counts ${preview.total} targets, not the ${options.subscriptions} seeded`);

  log(`  adding ${options.days} days to ${preview.total} subscriptions, with the traffic running`);
  const started = performance.now();
  const batch = await api.call<Batch>('POST', '/bulk-operations', admin, {
    ...selection,
    days: options.days,
    reason: 'Bench: outage compensation',
  });
  const startMs = performance.now() - started;
  let current: Batch = batch;
  let pollError: unknown = null;
  const progress: Array<{ atMs: number; settled: number }> = [];
  const poller = (async () => {
    let lastLog = performance.now();
    while (current.status !== 'COMPLETED') {
      if (performance.now() - started > options.timeoutMs) {
        pollError = new Error(
          `the batch settled ${current.doneCount + current.failedCount} targets in ${options.timeoutMs} ms`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      try {
        current = await api.call<Batch>(
          'GET',
          `/bulk-operations/${batch.id}`,
          await options.admin.current(),
          undefined,
          [200],
        );
      } catch (error) {
        pollError = error;
        return;
      }
      progress.push({
        atMs: Math.round(performance.now() - started),
        settled: current.doneCount + current.failedCount,
      });
      if (performance.now() - lastLog > PROGRESS_LOG_MS) {
        log(`  ${current.doneCount} done, ${current.failedCount} failed of ${current.targetCount}`);
        lastLog = performance.now();
      }
    }
  })();
  const during = await transfersUntil(
    api,
    traffic,
    options.trafficClients,
    () => current.status === 'COMPLETED' || pollError !== null,
  );
  await poller;
  if (pollError) throw pollError;
  const batchMs = performance.now() - started;
  const extensionCatchUpMs = await waitForNone(db, PENDING_PROVISIONING_JOBS, 'provisioning jobs', 60 * 60_000);

  const endsAfter = await endsOf(db, planId);
  const moved = [...endsAfter.entries()].filter(
    ([id, endMs]) => endMs === (endsBefore.get(id) ?? NaN) + options.days * DAY_MS,
  ).length;
  const extendedEvents = await count(
    db,
    `SELECT count(*) AS n FROM events e JOIN subscriptions s ON e.stream_id = 'subscription-' || s.id
      WHERE s.plan_id = $1 AND e.metadata->>'correlationId' = $2`,
    [planId, batch.id],
  );
  const checks = {
    doneCount: current.doneCount,
    failedCount: current.failedCount,
    endMovedExactly: moved,
    subscriptionEventsOfTheBatch: extendedEvents,
    ok: current.doneCount === options.subscriptions && current.failedCount === 0 && moved === options.subscriptions,
  };
  if (!checks.ok) log(`  bulk checks FAILED: ${JSON.stringify(checks)}`);
  return {
    subscriptions: options.subscriptions,
    owners: options.owners,
    days: options.days,
    seeding: {
      concurrency: options.seedConcurrency,
      seconds: round(seeded.seedMs / 1000, 1),
      purchasesPerSecond: round((options.subscriptions * 1000) / seeded.buyingMs, 1),
      provisioningWaitSeconds: round(seeded.activationMs / 1000, 1),
    },
    startRequestMs: Math.round(startMs),
    batchSeconds: round(batchMs / 1000, 1),
    targetsPerSecond: round((current.targetCount * 1000) / batchMs, 1),
    progress: thin(progress, 20),
    provisioningExtensionCatchUpSeconds: round(extensionCatchUpMs / 1000, 1),
    traffic: {
      clients: options.trafficClients,
      alone: baseline,
      duringTheBatch: during,
      rateKeptRatio:
        baseline.commandsPerSecond > 0 ? round(during.commandsPerSecond / baseline.commandsPerSecond, 2) : null,
      p95Ratio: baseline.p95Ms > 0 ? round(during.p95Ms / baseline.p95Ms, 2) : null,
    },
    checks,
  };
}

/** At most `most` of the samples, evenly spread, the last kept. */
function thin<T>(samples: T[], most: number): T[] {
  if (samples.length <= most) return samples;
  const step = samples.length / most;
  return Array.from(
    { length: most },
    (_unused, index) => samples[Math.min(samples.length - 1, Math.round((index + 1) * step) - 1)],
  );
}

/** The end of each ACTIVE subscription of the package, in milliseconds. */
async function endsOf(db: Client, planId: string): Promise<Map<string, number>> {
  const rows = (
    await db.query<{ id: string; end_date: Date }>(
      "SELECT id, end_date FROM subscriptions WHERE plan_id = $1 AND status = 'ACTIVE'",
      [planId],
    )
  ).rows;
  return new Map(rows.map((row) => [row.id, row.end_date.getTime()]));
}
