import { openBuiltApi } from '@kupa/api/testing';
import type { Client } from 'pg';
import { withCommitWaits } from './commit-waits.ts';
import { cpuMsPerOperation, withCpuUse } from './cpu-use.ts';
import { type Api, createUsers, deposit, Session, USER_PASSWORD } from './http.ts';
import { round, runConcurrently, summarise } from './stats.ts';

/**
 * The subscription scenarios of the bench: purchases with the balance at a given number of concurrent clients, and
 * the renewal sweep over many subscriptions due at once. Both run against the built server with its background work
 * (provisioning through the built-in simulator, the mail and provisioning processors) running, as in production.
 */

/** Every package costs one dollar, so that funding and the balance checks stay simple sums. */
const PLAN_PRICE = 1;
const PLAN_PRICE_MINOR = 100;
/** A subscription password the streaming service accepts (4 characters or more). */
const SUBSCRIPTION_PASSWORD = 'bench-pass';
/** One buyer per concurrent client: enough balance for this many purchases each, far more than 8 s can spend. */
const BUYER_FLOAT = 50_000;
/** The renewal owners keep this much after their renewals, so "enough balance" never means "exactly enough". */
const OWNER_MARGIN = 5;
const POLL_MS = 200;
const FRESH_ENOUGH_MS = 5 * 60_000;
const PROGRESS_LOG_MS = 10_000;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

export async function createPlan(
  api: Api,
  admin: string,
  terms: { name: string; durationInMonths: 1 | 12; isRecurrent: boolean },
): Promise<string> {
  const plan = await api.call<{ id: string }>('POST', '/payment-plans', admin, {
    ...terms,
    price: PLAN_PRICE,
    currency: 'USD',
    description: 'Bench package',
    features: ['HD'],
    status: 'ACTIVE',
  });
  return plan.id;
}

export async function count(db: Client, sql: string, parameters: unknown[] = []): Promise<number> {
  const [{ n }] = (await db.query<{ n: string }>(sql, parameters)).rows;
  return Number(n);
}

/** Waits until `sql` counts nothing left; answers how long that took. */
export async function waitForNone(db: Client, sql: string, what: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  let lastLog = started;
  for (;;) {
    const left = await count(db, sql);
    if (left === 0) return performance.now() - started;
    if (performance.now() - started > timeoutMs) throw new Error(`${left} ${what} still waiting after ${timeoutMs} ms`);
    if (performance.now() - lastLog > PROGRESS_LOG_MS) {
      log(`  waiting for ${left} ${what}`);
      lastLog = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const PENDING_SUBSCRIPTIONS = "SELECT count(*) AS n FROM subscriptions WHERE status = 'PENDING'";
export const PENDING_PROVISIONING_JOBS = "SELECT count(*) AS n FROM provisioning_jobs WHERE status = 'PENDING'";
/**
 * A purchase is provisioned by two jobs: the account's creation, then (after the activation it causes) its exact
 * expiry. Work is left while either a subscription is PENDING or a job is: a processor may not have queued the next.
 */
export const PROVISIONING_LEFT = `SELECT (${PENDING_SUBSCRIPTIONS}) + (${PENDING_PROVISIONING_JOBS}) AS n`;

export interface PurchaseSetup {
  planId: string;
  buyers: Session[];
}

/**
 * The purchases' package (12 months, recurrent, so that none of them falls due when the renewal scenario moves its
 * clock a month ahead) and one funded buyer per concurrent client.
 */
export async function preparePurchases(api: Api, admin: string, buyerCount: number): Promise<PurchaseSetup> {
  const planId = await createPlan(api, admin, { name: 'Bench yearly', durationInMonths: 12, isRecurrent: true });
  const users = await createUsers(api, admin, buyerCount, 'buyer', false);
  for (const user of users) await deposit(api, admin, user.userUuid, BUYER_FLOAT, 'Bench buyer float');
  return { planId, buyers: users.map((user) => new Session(api, user.email, USER_PASSWORD)) };
}

/**
 * Purchases closed-loop at `concurrency` clients for `durationMs`, each client its own buyer (no two wait on one
 * wallet's lock). Provisioning runs meanwhile, as it does in production, and is part of what the purchases compete
 * with; afterwards the bench waits until every subscription is ACTIVE and every provisioning job done, so that no
 * level inherits another's backlog.
 */
export async function measurePurchases(
  api: Api,
  db: Client,
  databaseUrl: string,
  serverPid: number,
  setup: PurchaseSetup,
  concurrency: number,
  durationMs: number,
  /** Subscription logins are unique: a second scenario buying at the same level gives its own prefix. */
  loginPrefix = 'buy',
): Promise<Record<string, unknown>> {
  // A level lasts seconds: a token younger than five minutes outlives it, so nobody signs in while it is timed.
  for (const buyer of setup.buyers.slice(0, concurrency)) await buyer.refreshIfOlderThan(FRESH_ENOUGH_MS);
  const {
    result: { result, cpuUse },
    commitWaits,
  } = await withCommitWaits(databaseUrl, () =>
    withCpuUse(serverPid, () =>
      runConcurrently(concurrency, durationMs, async (worker, iteration) => {
        await api.call(
          'POST',
          `/subscriptions/balance/payment-plans/${setup.planId}`,
          await setup.buyers[worker].current(),
          {
            login: `${loginPrefix}-${concurrency}-${worker}-${iteration}`,
            password: SUBSCRIPTION_PASSWORD,
          },
        );
      }),
    ),
  );
  const pendingAtEnd = {
    subscriptions: await count(db, PENDING_SUBSCRIPTIONS),
    provisioningJobs: await count(db, PENDING_PROVISIONING_JOBS),
  };
  const catchUpMs = await waitForNone(db, PROVISIONING_LEFT, 'subscriptions and provisioning jobs', 30 * 60_000);
  const latency = summarise(result.latenciesMs);
  return {
    concurrency,
    purchasesPerSecond: result.perSecond,
    p50Ms: latency.p50Ms,
    p95Ms: latency.p95Ms,
    p99Ms: latency.p99Ms,
    count: latency.count,
    pendingAtEnd,
    provisioningCatchUpMs: Math.round(catchUpMs),
    commitWaits,
    // The server's provisioning of earlier purchases runs meanwhile and is part of what a purchase costs.
    cpuMsPerPurchase: cpuMsPerOperation(cpuUse, latency.count),
    busyShareOfCores: cpuUse.busyShareOfCores,
  };
}

export interface RenewalOptions {
  api: Api;
  db: Client;
  admin: Session;
  databaseUrl: string;
  /** The server's environment, for the second application context that runs the sweep. */
  serverEnv: Record<string, string>;
  subscriptions: number;
  owners: number;
  /** Concurrent purchases while seeding. */
  seedConcurrency: number;
}

interface OwnerTask {
  owner: number;
  login: string;
}

export interface SeedOptions {
  api: Api;
  db: Client;
  admin: Session;
  planId: string;
  subscriptions: number;
  owners: number;
  /** Concurrent purchases while seeding. */
  seedConcurrency: number;
  /** Names the owners (`{prefix}-owner-N`) and the logins (`{prefix}-000001`), unique per scenario. */
  prefix: string;
}

/**
 * `subscriptions` ACTIVE subscriptions of `planId` through the real path: `owners` funded clients, purchases over HTTP
 * at `seedConcurrency` clients (each client buying for its own owners) and the server's own provisioning, until every
 * one is ACTIVE and the provisioning queue is empty. Answers the timings of each part and the purchases' latencies.
 */
export async function seedActiveSubscriptions(
  options: SeedOptions,
): Promise<{ buyingMs: number; activationMs: number; seedMs: number; latencies: number[] }> {
  const { api, db } = options;
  log(`  ${options.owners} owners for ${options.subscriptions} subscriptions`);
  let admin = await options.admin.current();
  const owners = await createUsers(api, admin, options.owners, `${options.prefix}-owner`, false);
  const perOwner = owners.map(
    (_owner, index) =>
      Math.floor(options.subscriptions / options.owners) + (index < options.subscriptions % options.owners ? 1 : 0),
  );
  admin = await options.admin.current();
  for (const [index, owner] of owners.entries())
    await deposit(api, admin, owner.userUuid, perOwner[index] * PLAN_PRICE * 2 + OWNER_MARGIN, 'Bench owner float');
  // Signed in before the clock starts; seeding outlasts a token, so sessions sign in again on their own meanwhile.
  const sessions = owners.map((owner) => new Session(api, owner.email, USER_PASSWORD));
  for (const session of sessions) await session.current();
  const tasks: OwnerTask[][] = Array.from({ length: options.seedConcurrency }, () => []);
  let sequence = 0;
  for (const [index, subscriptionCount] of perOwner.entries()) {
    for (let bought = 0; bought < subscriptionCount; bought += 1) {
      tasks[index % options.seedConcurrency].push({
        owner: index,
        login: `${options.prefix}-${String(sequence).padStart(6, '0')}`,
      });
      sequence += 1;
    }
  }

  log(`  buying ${options.subscriptions} subscriptions at ${options.seedConcurrency} clients`);
  const seedStarted = performance.now();
  const latencies: number[] = [];
  await Promise.all(
    tasks.map(async (queue) => {
      for (const task of queue) {
        const begun = performance.now();
        await api.call(
          'POST',
          `/subscriptions/balance/payment-plans/${options.planId}`,
          await sessions[task.owner].current(),
          { login: task.login, password: SUBSCRIPTION_PASSWORD },
        );
        latencies.push(performance.now() - begun);
        if (latencies.length % 1000 === 0) log(`  ${latencies.length} bought`);
      }
    }),
  );
  const buyingMs = performance.now() - seedStarted;
  // What comes next starts on an empty provisioning queue, so that it competes only with the work it causes itself.
  const activationMs = await waitForNone(db, PROVISIONING_LEFT, 'subscriptions and provisioning jobs', 2 * 60 * 60_000);
  return { buyingMs, activationMs, seedMs: performance.now() - seedStarted, latencies };
}

/**
 * The renewal sweep over `subscriptions` recurrent ACTIVE subscriptions due at once:
 * 1. seeds them through the real path: a one-month recurrent package, `owners` funded clients, purchases over HTTP
 *    at `seedConcurrency` clients (each client buying for its own owners) and the server's own provisioning, until
 *    every one is ACTIVE and the provisioning queue is empty;
 * 2. sets the bench's clock just past the latest `next_payment_date` (each is three days before its end), so all of
 *    them are inside the renewal window and none has ended;
 * 3. runs the `subscription-renewals` sweep to completion in an application context of the built API on that clock,
 *    while the server keeps running its processors (the renewal mails, the provisioning extensions);
 * 4. checks that each subscription was renewed exactly once, its end moved, and every owner's balance is its balance
 *    before the sweep less one period's price per subscription it owns.
 */
export async function measureRenewals(options: RenewalOptions): Promise<Record<string, unknown>> {
  const { api, db } = options;
  const admin = await options.admin.current();
  const planId = await createPlan(api, admin, { name: 'Bench monthly', durationInMonths: 1, isRecurrent: true });

  const seeded = await seedActiveSubscriptions({
    api,
    db,
    admin: options.admin,
    planId,
    subscriptions: options.subscriptions,
    owners: options.owners,
    seedConcurrency: options.seedConcurrency,
    prefix: 'renew',
  });
  const { buyingMs, activationMs, seedMs, latencies } = seeded;
  const [window] = (
    await db.query<{ active: string; latest_due: Date; earliest_end: Date }>(
      `SELECT count(*) FILTER (WHERE status = 'ACTIVE') AS active, max(next_payment_date) AS latest_due,
              min(end_date) AS earliest_end
         FROM subscriptions WHERE plan_id = $1`,
      [planId],
    )
  ).rows;
  if (Number(window.active) !== options.subscriptions)
    throw new Error(`${window.active} of ${options.subscriptions} seeded subscriptions are ACTIVE`);
  const clock = new Date(window.latest_due.getTime() + 1000);
  if (clock >= window.earliest_end) throw new Error('The seeded subscriptions are not all inside the renewal window');

  const before = await ownerFigures(db, planId);
  const renewedBefore = await count(db, "SELECT count(*) AS n FROM events WHERE type = 'SubscriptionRenewed'");

  log(`  sweeping at ${clock.toISOString()}`);
  const context = await openBuiltApi({ databaseUrl: options.databaseUrl, env: options.serverEnv, at: clock });
  let sweepMs = 0;
  let acted = 0;
  try {
    const progress = setInterval(() => {
      void count(db, "SELECT count(*) AS n FROM events WHERE type = 'SubscriptionRenewed'").then(
        (renewed) => log(`  ${renewed - renewedBefore} renewed`),
        () => undefined,
      );
    }, PROGRESS_LOG_MS);
    const sweepStarted = performance.now();
    try {
      acted = await context.sweepNow('subscription-renewals');
    } finally {
      sweepMs = performance.now() - sweepStarted;
      clearInterval(progress);
    }
  } finally {
    await context.close();
  }
  const extensionCatchUpMs = await waitForNone(db, PENDING_PROVISIONING_JOBS, 'provisioning jobs', 60 * 60_000);

  const after = await ownerFigures(db, planId);
  const [renewed] = (
    await db.query<{ events: string; subscriptions: string }>(
      `SELECT count(*) AS events, count(DISTINCT e.stream_id) AS subscriptions
         FROM events e JOIN subscriptions s ON e.stream_id = 'subscription-' || s.id
        WHERE e.type = 'SubscriptionRenewed' AND s.plan_id = $1`,
      [planId],
    )
  ).rows;
  const renewedAfter = await count(db, "SELECT count(*) AS n FROM events WHERE type = 'SubscriptionRenewed'");
  const moved = [...after.ends.entries()].filter(
    ([id, end]) => end.status === 'ACTIVE' && end.endMs === plusOneMonthMs(before.ends.get(id)?.endMs ?? NaN),
  ).length;
  const wrongBalances = [...after.balances.entries()].filter(
    ([owner, balance]) =>
      balance !== (before.balances.get(owner) ?? NaN) - (before.subscriptionsOf.get(owner) ?? 0) * PLAN_PRICE_MINOR,
  );
  const checks = {
    renewalEvents: Number(renewed.events),
    subscriptionsRenewed: Number(renewed.subscriptions),
    renewalsElsewhere: renewedAfter - renewedBefore - Number(renewed.events),
    sweepActedOn: acted,
    activeAndEndMovedOneMonth: moved,
    ownersChecked: after.balances.size,
    ownersWithWrongBalance: wrongBalances.length,
    ok:
      Number(renewed.events) === options.subscriptions &&
      Number(renewed.subscriptions) === options.subscriptions &&
      renewedAfter - renewedBefore === options.subscriptions &&
      acted === options.subscriptions &&
      moved === options.subscriptions &&
      wrongBalances.length === 0 &&
      after.balances.size === options.owners,
  };
  if (!checks.ok) log(`  renewal checks FAILED: ${JSON.stringify(checks)}`);
  const seedLatency = summarise(latencies);
  return {
    subscriptions: options.subscriptions,
    owners: options.owners,
    clock: clock.toISOString(),
    seeding: {
      concurrency: options.seedConcurrency,
      seconds: round(seedMs / 1000, 1),
      buyingSeconds: round(buyingMs / 1000, 1),
      purchasesPerSecond: round((options.subscriptions * 1000) / buyingMs, 1),
      purchaseP50Ms: seedLatency.p50Ms,
      purchaseP99Ms: seedLatency.p99Ms,
      provisioningWaitSeconds: round(activationMs / 1000, 1),
    },
    sweepSeconds: round(sweepMs / 1000, 1),
    renewalsPerSecond: round((Number(renewed.events) * 1000) / sweepMs, 1),
    provisioningExtensionCatchUpSeconds: round(extensionCatchUpMs / 1000, 1),
    checks,
  };
}

/** A calendar month later in UTC, a day the month lacks becoming its last day (the subscriptions' period rule). */
function plusOneMonthMs(ms: number): number {
  const from = new Date(ms);
  const target = new Date(ms);
  target.setUTCDate(1);
  target.setUTCMonth(from.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return target.getTime();
}

/** Each owner's balance and number of seeded subscriptions, and each seeded subscription's status and end. */
async function ownerFigures(
  db: Client,
  planId: string,
): Promise<{
  balances: Map<string, number>;
  subscriptionsOf: Map<string, number>;
  ends: Map<string, { status: string; endMs: number }>;
}> {
  const owners = (
    await db.query<{ user_uuid: string; balance_minor: string; subscriptions: string }>(
      `SELECT b.user_uuid, b.balance_minor::text AS balance_minor, s.subscriptions::text AS subscriptions
         FROM (SELECT user_uuid, count(*) AS subscriptions FROM subscriptions WHERE plan_id = $1 GROUP BY user_uuid) s
         JOIN ledger_user_balances b ON b.user_uuid = s.user_uuid`,
      [planId],
    )
  ).rows;
  const subscriptions = (
    await db.query<{ id: string; status: string; end_date: Date }>(
      'SELECT id, status, end_date FROM subscriptions WHERE plan_id = $1',
      [planId],
    )
  ).rows;
  return {
    balances: new Map(owners.map((row) => [row.user_uuid, Number(row.balance_minor)])),
    subscriptionsOf: new Map(owners.map((row) => [row.user_uuid, Number(row.subscriptions)])),
    ends: new Map(subscriptions.map((row) => [row.id, { status: row.status, endMs: row.end_date.getTime() }])),
  };
}
