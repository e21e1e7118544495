import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import {
  type Fleet,
  fleetDatabaseUrl,
  type KupaProcess,
  prepareFleet,
  runKupaCli,
  startEmbeddedDatabase,
  startKupaProcess,
} from '../support/kupa-fleet.ts';
import { freePort } from '../support/kupa-server.ts';
import { postmasterPid, processAlive } from '../support/postmaster.ts';
import {
  assertLedgerInvariants,
  balanceMinor,
  createClient,
  createPlan,
  type FleetClient,
  type MoneyRequest,
  PLAN_PRICE_MINOR,
  purchaseRequest,
  purchasesByLogin,
  send,
  signIn,
  transferRequest,
  waitForProvisioning,
} from '../support/money.ts';

/**
 * Crash recovery (docs/adr/0036-processes-and-roles.md): under a bounded load of transfers and purchases, each with
 * its `Idempotency-Key`, the API, the worker and then PostgreSQL are killed with SIGKILL and started again. A client
 * that gets no answer, or a 5xx, sends the same request with the same key again until it gets one, as a careful client
 * does. Afterwards: every request the client saw succeed is in the ledger once, replaying every request with its key
 * answers the first answer and moves nothing, `kupa ledger verify` passes, and the processors resumed without loss or
 * duplicate effects (every purchase provisioned by one job and activated once, its mails recorded once, none lost).
 *
 * With DATABASE_URL the database is a shared server the test must not kill: that one step is left out, said so in
 * the output, and the rest runs.
 */
const ADMIN_EMAIL = 'crash-admin@example.com';
const ADMIN_PASSWORD = 'Crash-Admin-Pass-1!';
const PAYERS = 8;
const TRANSFERS_PER_PAYER = 24;
const PURCHASES_PER_PAYER = 12;
const PER_PAYER = TRANSFERS_PER_PAYER + PURCHASES_PER_PAYER;
const TOTAL = PAYERS * PER_PAYER;
/** Each payer can afford all its requests and some: no request is refused for want of money. */
const FLOAT_DOLLARS = PER_PAYER + 4;
const RETRY_PAUSE_MS = 250;
const LOAD_DEADLINE_MS = 120_000;

const started = performance.now();

function note(message: string): void {
  process.stdout.write(`crash test, ${((performance.now() - started) / 1000).toFixed(1)} s: ${message}\n`);
}

/** The pids of a process's children, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

async function waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('crash recovery under load', { timeout: 300_000 }, () => {
  let fleet: Fleet;
  let database: KupaProcess | null = null;
  let api: KupaProcess;
  let worker: KupaProcess;
  let apiPort: number;
  let db: Client;

  const startApi = () =>
    startKupaProcess(fleet, {
      name: 'API',
      role: 'api',
      port: apiPort,
      env: { ADMIN_EMAIL, ADMIN_PASSWORD },
    });
  // `worker.js`, the worker's own entry point; it reaches the provisioning simulator through the API's port.
  const startWorker = () => startKupaProcess(fleet, { name: 'worker', role: 'worker', entry: 'worker', port: apiPort });

  before(async () => {
    fleet = await prepareFleet();
    apiPort = await freePort();
    if (!fleet.databaseUrl) database = await startEmbeddedDatabase(fleet);
    api = await startApi();
    worker = await startWorker();
  });

  after(async () => {
    await db?.end().catch(() => undefined);
    await Promise.all([api?.stop(), worker?.stop()]);
    await database?.stop();
    await fleet?.close();
  });

  /** SIGKILL to the postmaster (and to the process that ran it), then a new PostgreSQL on the same data and port. */
  async function killAndRestartDatabase(): Promise<void> {
    if (!database) {
      note(
        'skipping only the database kill: with DATABASE_URL the PostgreSQL is a shared server this test must not ' +
          'kill; the API and worker kills and every check below still run',
      );
      return;
    }
    const postmaster = postmasterPid(fleet.dataDir);
    const backends = childrenOf(postmaster);
    process.kill(postmaster, 'SIGKILL');
    database.kill('SIGKILL');
    await database.exited;
    // Its backends notice the postmaster's death and end; a new postmaster refuses to start while they live.
    await waitUntil(() => backends.every((pid) => !processAlive(pid)), 'the backends did not end', 15_000).catch(() => {
      for (const pid of backends) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    note(`killed PostgreSQL (postmaster ${postmaster}) with SIGKILL; starting it again`);
    database = await startEmbeddedDatabase(fleet);
  }

  it('loses no success, moves no money twice and resumes the processors after SIGKILL of each process', async () => {
    const baseUrl = api.baseUrl ?? '';
    const admin = await signIn(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const planId = await createPlan(baseUrl, admin, 'Crash yearly');
    const stamp = Date.now().toString(36);
    const payers: FleetClient[] = [];
    for (let index = 0; index < PAYERS; index += 1)
      payers.push(await createClient(baseUrl, admin, `payer-${stamp}-${index}@example.com`, FLOAT_DOLLARS));
    const receiver = await createClient(baseUrl, admin, `receiver-${stamp}@example.com`, 0);

    const queues: MoneyRequest[][] = payers.map((_payer, payer) =>
      Array.from({ length: PER_PAYER }, (_unused, index) =>
        // Two transfers, then a purchase, by turns.
        index % 3 === 2
          ? purchaseRequest(`crash-${stamp}-${payer}-${index}`, payer, planId, `crash-${stamp}-${payer}-${index}`)
          : transferRequest(`crash-${stamp}-${payer}-${index}`, payer, receiver.email),
      ),
    );
    const requests = queues.flat();
    /** The first 201 body the client saw for each key. */
    const succeeded = new Map<string, string>();
    let retries = 0;
    let answered = 0;
    /** The last failed answers, for the message of a load that stalls. */
    const lastFailures: string[] = [];
    const loadDeadline = Date.now() + LOAD_DEADLINE_MS;
    const stalled = () =>
      `the load did not finish within ${LOAD_DEADLINE_MS} ms (${answered} of ${TOTAL} answered); the last failures:\n` +
      `${lastFailures.join('\n')}\nthe API's last output:\n${api.output().slice(-3000)}`;

    // The clients: each payer's requests one after another; no answer or a 5xx is sent again with the same key.
    const load = Promise.all(
      queues.map(async (queue) => {
        for (const request of queue) {
          for (;;) {
            if (Date.now() >= loadDeadline) assert.fail(stalled());
            const outcome = await send(baseUrl, payers[request.payer].token, request);
            if (outcome.status === 201) {
              succeeded.set(request.key, outcome.body);
              break;
            }
            assert.ok(
              outcome.status === 'network' || outcome.status >= 500,
              `${request.key} answered ${outcome.status}: ${outcome.body}`,
            );
            retries += 1;
            lastFailures.push(
              `${((performance.now() - started) / 1000).toFixed(1)} s ${request.key}: ${outcome.status} ${outcome.body}`,
            );
            if (lastFailures.length > 8) lastFailures.shift();
            await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
          }
          answered += 1;
        }
      }),
    );

    // The crashes, each at a point of the load, each process started again at once.
    const crashes = (async () => {
      await waitUntil(() => answered >= TOTAL * 0.2, 'a fifth of the load was not answered', LOAD_DEADLINE_MS);
      api.kill('SIGKILL');
      await api.exited;
      note(`killed the API with SIGKILL after ${answered} of ${TOTAL} requests; starting it again`);
      api = await startApi();

      await waitUntil(() => answered >= TOTAL * 0.45, 'the load stalled after the API restart', LOAD_DEADLINE_MS);
      worker.kill('SIGKILL');
      await worker.exited;
      note(`killed the worker with SIGKILL after ${answered} of ${TOTAL} requests; starting it again`);
      worker = await startWorker();

      await waitUntil(() => answered >= TOTAL * 0.7, 'the load stalled after the worker restart', LOAD_DEADLINE_MS);
      await killAndRestartDatabase();
    })();
    await Promise.all([load, crashes]);
    note(`${TOTAL} requests succeeded after ${retries} retries`);
    assert.equal(succeeded.size, TOTAL);

    db = new Client({ connectionString: fleetDatabaseUrl(fleet) });
    await db.connect();
    const balances = async () => {
      const found: number[] = [];
      for (const payer of payers) found.push(await balanceMinor(db, payer.userUuid));
      return found;
    };
    const balancesBefore = await balances();

    // Every request again, with its key: the first answer comes back and no money moves.
    for (const queue of queues) {
      await Promise.all(
        queue.map(async (request) => {
          const outcome = await send(baseUrl, payers[request.payer].token, request);
          assert.equal(outcome.status, 201, `${request.key} replayed: ${outcome.body}`);
          assert.deepEqual(JSON.parse(outcome.body), JSON.parse(succeeded.get(request.key) ?? 'null'), request.key);
        }),
      );
    }
    const balancesAfter = await balances();
    assert.deepEqual(balancesAfter, balancesBefore, 'a replay moved money');

    // Each success in the ledger once: every payer paid exactly its requests, the receiver got every transfer.
    for (const [payer, client] of payers.entries()) {
      const balance = await balanceMinor(db, client.userUuid);
      if (balance === (FLOAT_DOLLARS - PER_PAYER) * PLAN_PRICE_MINOR) continue;
      // The wallet's events say what moved: a refund, for one, means provisioning gave up on a purchase.
      const events = await db.query<{ type: string; n: string }>(
        'SELECT type, count(*) AS n FROM events WHERE stream_id = $1 GROUP BY type ORDER BY type',
        [`wallet-${client.userUuid}`],
      );
      assert.fail(
        `payer ${payer} holds ${balance} minor units, not ${(FLOAT_DOLLARS - PER_PAYER) * PLAN_PRICE_MINOR}; ` +
          `its wallet's events: ${events.rows.map((row) => `${row.type} ×${row.n}`).join(', ')}`,
      );
    }
    assert.equal(await balanceMinor(db, receiver.userUuid), PAYERS * TRANSFERS_PER_PAYER * PLAN_PRICE_MINOR);
    const keys = await db.query<{ n: string }>('SELECT count(*) AS n FROM idempotency_keys WHERE key = ANY($1)', [
      requests.map((request) => request.key),
    ]);
    assert.equal(Number(keys.rows[0].n), TOTAL);
    const purchases = requests.filter((request) => request.kind === 'purchase');
    const bought = await purchasesByLogin(
      db,
      purchases.map((request) => String(request.body.login)),
    );
    for (const request of purchases) assert.equal(bought.get(String(request.body.login)), 1, request.key);
    await assertLedgerInvariants(db);

    // The processors resumed: every purchase provisioned, by one job that succeeded, and activated once.
    note('replayed every request; waiting for the processors');
    // A job the killed worker held waits for its lease to lapse (PROVISIONING_LEASE_MS, 15 s in the fleet).
    await waitForProvisioning(db, 100_000).catch((error: Error) => {
      // A stalled queue most often means a dead worker: its last words say why.
      throw new Error(`${error.message}\nthe worker's last output: ${worker.output().slice(-3000)}`);
    });
    const jobs = await db.query<{ subscription_id: string; jobs: string; done: string }>(
      `SELECT s.id AS subscription_id, count(j.id) AS jobs, count(j.id) FILTER (WHERE j.status = 'DONE') AS done
         FROM subscriptions s LEFT JOIN provisioning_jobs j ON j.subscription_id = s.id AND j.operation = 'CREATE_ACCOUNT'
        WHERE s.login = ANY($1) GROUP BY s.id`,
      [purchases.map((request) => String(request.body.login))],
    );
    assert.equal(jobs.rows.length, purchases.length);
    for (const row of jobs.rows) assert.deepEqual([row.jobs, row.done], ['1', '1'], row.subscription_id);
    const notActive = await db.query(
      "SELECT id, status FROM subscriptions WHERE login = ANY($1) AND status <> 'ACTIVE'",
      [purchases.map((request) => String(request.body.login))],
    );
    assert.deepEqual(notActive.rows, []);
    const activations = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM events e JOIN subscriptions s ON e.stream_id = 'subscription-' || s.id
        WHERE e.type = 'SubscriptionActivated' AND s.login = ANY($1)`,
      [purchases.map((request) => String(request.body.login))],
    );
    assert.equal(Number(activations.rows[0].n), purchases.length);
    const accounts = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM sandbox_streaming_accounts WHERE login = ANY($1)',
      [purchases.map((request) => String(request.body.login))],
    );
    assert.equal(Number(accounts.rows[0].n), purchases.length);

    // Mails: each recorded once per subscription and kind, and every one sent.
    const duplicates = await db.query(
      `SELECT kind, payload->>'subscriptionId' AS subscription, count(*) FROM mail_outbox
        WHERE kind LIKE 'subscription.%' GROUP BY 1, 2 HAVING count(*) > 1`,
    );
    assert.deepEqual(duplicates.rows, []);
    // None lost: each is sent, or (claimed by the worker that was killed) waits for its send lease to lapse.
    await waitUntil(
      async () =>
        Number(
          (
            await db.query<{ n: string }>(
              'SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL AND NOT skipped AND next_attempt_at <= now()',
            )
          ).rows[0].n,
        ) === 0,
      'mails were left unsent',
      30_000,
    );
    const leased = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM mail_outbox WHERE sent_at IS NULL AND NOT skipped',
    );
    note(`${leased.rows[0].n} mails wait for the lease of the killed worker to lapse`);
    // Every processor's checkpoint reaches the head of the store.
    await waitUntil(
      async () =>
        (
          await db.query(
            'SELECT name FROM checkpoints WHERE commit_position < (SELECT max(commit_position) FROM event_commits)',
          )
        ).rows.length === 0,
      'a processor did not catch up',
      30_000,
    );

    note('the processors caught up; running kupa ledger verify');
    const verify = await runKupaCli(fleet, 'ledger', 'verify', '--json');
    assert.equal(verify.code, 0, `${verify.stdout}\n${verify.stderr}`);
    assert.equal((JSON.parse(verify.stdout.trim().split('\n').pop() ?? '{}') as { ok: boolean }).ok, true);
  });
});
