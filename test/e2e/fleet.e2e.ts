import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import {
  type Fleet,
  fleetDatabaseUrl,
  type KupaProcess,
  prepareFleet,
  runKupaCli,
  startKupaProcess,
} from '../support/kupa-fleet.ts';
import { freePort } from '../support/kupa-server.ts';
import {
  assertLedgerInvariants,
  balanceMinor,
  createClient,
  createPlan,
  type FleetClient,
  type MoneyRequest,
  type Outcome,
  PLAN_PRICE_MINOR,
  purchaseRequest,
  purchasesByLogin,
  send,
  signIn,
  transferRequest,
  waitForProvisioning,
} from '../support/money.ts';

/**
 * Kupa as a fleet (docs/adr/0036-processes-and-roles.md): two API processes (`KUPA_ROLE=api`, each on its own port)
 * and a worker (`KUPA_ROLE=worker`) on one database. The APIs serve HTTP only and the worker runs the background work,
 * once; purchases and transfers racing through both APIs at once keep the money invariants, and `kupa ledger verify`
 * passes. Then `WEB_CONCURRENCY=2`: one start forks two API processes sharing the port, and a worker.
 */
const ADMIN_EMAIL = 'fleet-admin@example.com';
const ADMIN_PASSWORD = 'Fleet-Admin-Pass-1!';
const SPENDERS = 4;
/** Each spender holds this many dollars and asks for twice as many one-dollar transfers and purchases at once. */
const FLOAT_DOLLARS = 10;

const mailLines = (process: KupaProcess, to: string) =>
  process
    .records()
    .filter(
      (record) =>
        String(record.msg).startsWith('Mail written to the log') &&
        (record.mail as { to?: string } | undefined)?.to === to,
    );

describe('two API processes and a worker on one database', { timeout: 240_000 }, () => {
  let fleet: Fleet;
  let apiA: KupaProcess;
  let apiB: KupaProcess;
  let worker: KupaProcess;
  let db: Client;

  before(async () => {
    fleet = await prepareFleet();
    const [portA, portB] = [await freePort(), await freePort()];
    const startA = () =>
      startKupaProcess(fleet, {
        name: 'API A',
        role: 'api',
        port: portA,
        env: { ADMIN_EMAIL, ADMIN_PASSWORD },
      });
    const startOthers = () =>
      Promise.all([
        startKupaProcess(fleet, { name: 'API B', role: 'api', port: portB }),
        // The worker reaches the built-in provisioning simulator through API A's port.
        startKupaProcess(fleet, { name: 'worker', role: 'worker', port: portA }),
      ]);
    if (fleet.databaseUrl) {
      // All three at once on a fresh database: the migrations run once, under their lock.
      [apiA, [apiB, worker]] = await Promise.all([startA(), startOthers()]);
    } else {
      // The first process starts the embedded PostgreSQL; the others attach to it.
      apiA = await startA();
      [apiB, worker] = await startOthers();
    }
    db = new Client({ connectionString: fleetDatabaseUrl(fleet) });
    await db.connect();
  });

  after(async () => {
    await db?.end();
    // The API that started the embedded PostgreSQL stops last, and stops it.
    await Promise.all([apiB?.stop(), worker?.stop()]);
    await apiA?.stop();
    await fleet?.close();
  });

  it('serves HTTP only from the API processes and sends the sign-up mail once, from the worker', async () => {
    const email = `fleet-signup-${Date.now()}@example.com`;
    const response = await fetch(`${apiB.baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'Fleet-Signup-1!', firstName: 'F', lastName: 'L', termsAccepted: true }),
    });
    assert.equal(response.status, 201, await response.text());
    const deadline = Date.now() + 30_000;
    while (mailLines(worker, email).length === 0) {
      assert.ok(Date.now() < deadline, `the worker sent no sign-up mail:\n${worker.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(mailLines(worker, email).length, 1);
    assert.equal(mailLines(apiA, email).length + mailLines(apiB, email).length, 0, 'an API process sent mail');
    const outbox = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM mail_outbox WHERE recipient = $1 AND sent_at IS NOT NULL',
      [email],
    );
    assert.equal(Number(outbox.rows[0].n), 1);
  });

  it('keeps the money invariants under purchase and transfer races through both APIs at once', async () => {
    const apis = [apiA.baseUrl ?? '', apiB.baseUrl ?? ''];
    const admin = await signIn(apis[0], ADMIN_EMAIL, ADMIN_PASSWORD);
    const planId = await createPlan(apis[0], admin, 'Fleet yearly');
    const stamp = Date.now().toString(36);
    const spenders: FleetClient[] = [];
    for (let index = 0; index < SPENDERS; index += 1)
      spenders.push(await createClient(apis[index % 2], admin, `spender-${stamp}-${index}@example.com`, FLOAT_DOLLARS));
    const receiver = await createClient(apis[1], admin, `receiver-${stamp}@example.com`, 0);

    // Every spender asks for FLOAT_DOLLARS transfers and as many purchases, all at once, through both APIs by turns.
    const requests: MoneyRequest[] = [];
    for (let payer = 0; payer < SPENDERS; payer += 1) {
      for (let index = 0; index < FLOAT_DOLLARS; index += 1) {
        requests.push(transferRequest(`race-${stamp}-t-${payer}-${index}`, payer, receiver.email));
        requests.push(
          purchaseRequest(`race-${stamp}-p-${payer}-${index}`, payer, planId, `race-${stamp}-${payer}-${index}`),
        );
      }
    }
    const outcomes: Outcome[] = await Promise.all(
      requests.map((request, index) => send(apis[index % 2], spenders[request.payer].token, request)),
    );
    const unexpected = outcomes.filter(
      (outcome) => outcome.status !== 201 && !(outcome.status === 409 && outcome.body.includes('error.insufficient')),
    );
    assert.deepEqual(unexpected, [], 'answers other than success or insufficient balance');
    const succeeded = requests.filter((_request, index) => outcomes[index].status === 201);

    // No money spent twice and none lost: each spender's balance is its float less what its successes cost.
    let receivedMinor = 0;
    for (const [payer, spender] of spenders.entries()) {
      const spent = succeeded.filter((request) => request.payer === payer);
      assert.ok(spent.length <= FLOAT_DOLLARS, `spender ${payer} spent ${spent.length} dollars of ${FLOAT_DOLLARS}`);
      assert.equal(await balanceMinor(db, spender.userUuid), (FLOAT_DOLLARS - spent.length) * PLAN_PRICE_MINOR);
      receivedMinor += spent.filter((request) => request.kind === 'transfer').length * PLAN_PRICE_MINOR;
    }
    assert.equal(await balanceMinor(db, receiver.userUuid), receivedMinor);
    // Each successful purchase is one subscription; a refused one left none.
    const purchases = requests.filter((request) => request.kind === 'purchase');
    const bought = await purchasesByLogin(
      db,
      purchases.map((request) => String(request.body.login)),
    );
    for (const request of purchases) {
      const expected = succeeded.includes(request) ? 1 : 0;
      assert.equal(bought.get(String(request.body.login)) ?? 0, expected, String(request.body.login));
    }
    await assertLedgerInvariants(db);
    // The worker provisions every purchase, whichever API took it.
    await waitForProvisioning(db, 60_000);

    const verify = await runKupaCli(fleet, 'ledger', 'verify', '--json');
    assert.equal(verify.code, 0, `${verify.stdout}\n${verify.stderr}`);
    assert.equal((JSON.parse(verify.stdout.trim().split('\n').pop() ?? '{}') as { ok: boolean }).ok, true);
    // The daily verify continues the checkpoint the full one wrote, through whatever the fleet appended since (ADR 0111).
    const since = await runKupaCli(fleet, 'ledger', 'verify', '--since-checkpoint', '--json');
    assert.equal(since.code, 0, `${since.stdout}\n${since.stderr}`);
    const sinceReport = JSON.parse(since.stdout.trim().split('\n').pop() ?? '{}') as {
      outcome: string;
      checkpoint: { written: boolean } | null;
    };
    assert.equal(sinceReport.outcome, 'verified');
    assert.equal(sinceReport.checkpoint?.written, true);
  });
});

describe('KUPA_ROLE', () => {
  /** Starts an entry point with `env` and answers how it ended and what it said. */
  function startAndEnd(entry: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '..', '..', entry)], {
        // The sandboxes, as on the embedded database: the refusal under test comes first, not PROVISIONING_URL's.
        env: { ...process.env, KUPA_SANDBOX: '1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  }

  it('refuses a role it does not know, and the worker entry point refuses the api role, saying why', async () => {
    const unknown = await startAndEnd('services/api/dist/main.js', { KUPA_ROLE: 'web' });
    assert.equal(unknown.code, 1);
    assert.match(unknown.output, /KUPA_ROLE must be one of api, worker, all \(or unset, for all\), got web/);
    const contradiction = await startAndEnd('services/api/dist/worker.js', { KUPA_ROLE: 'api' });
    assert.equal(contradiction.code, 1);
    assert.match(contradiction.output, /KUPA_ROLE=api contradicts the worker entry point/);
  });
});

describe('WEB_CONCURRENCY=2', { timeout: 180_000 }, () => {
  let fleet: Fleet;
  let primary: KupaProcess;

  before(async () => {
    fleet = await prepareFleet();
    primary = await startKupaProcess(fleet, { name: 'primary', role: 'all', env: { WEB_CONCURRENCY: '2' } });
  });

  after(async () => {
    await primary?.stop();
    await fleet?.close();
  });

  /** A GET of the version on a new connection; a failure (a process just killed) is only skipped. */
  function getOnNewConnection(requestId: string): Promise<void> {
    return new Promise((resolve) => {
      const request = get(
        `${primary.baseUrl}/api/common/app/version`,
        { agent: false, headers: { 'X-Request-Id': requestId }, timeout: 5000 },
        (response) => {
          response.resume();
          response.on('end', () => resolve());
        },
      );
      request.on('timeout', () => request.destroy());
      request.on('error', () => resolve());
    });
  }

  /** The pids of the processes whose log lines carry the request ids sent. */
  async function servingPids(prefix: string, count: number): Promise<Set<number>> {
    // Each request on a connection of its own: the cluster hands out connections, not requests, by turns.
    for (let index = 0; index < count; index += 1) await getOnNewConnection(`${prefix}-${index}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return new Set(
      primary
        .records()
        .filter((record) => String(record.requestId ?? '').startsWith(`${prefix}-`))
        .map((record) => Number(record.pid)),
    );
  }

  it('serves from two API processes and runs one worker; a killed API process is forked again', async () => {
    const waitForWorker = Date.now() + 60_000;
    while (
      !/worker is running the processors/.test(primary.output()) ||
      !/Kupa is up with 2 API/.test(primary.output())
    ) {
      assert.ok(Date.now() < waitForWorker, primary.output().slice(-3000));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(primary.output().match(/worker is running the processors/g)?.length, 1, 'one worker process');
    const pids = await servingPids('wc-first', 20);
    assert.equal(pids.size, 2, `requests served by ${[...pids].join(', ')}`);
    assert.ok(!pids.has(primary.pid), 'the primary serves no request');

    const [killed] = [...pids];
    process.kill(killed, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    let now = await servingPids('wc-again-0', 10);
    for (let round = 1; now.size < 2 || now.has(killed); round += 1) {
      assert.ok(Date.now() < deadline, `no API process replaced ${killed}:\n${primary.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      now = await servingPids(`wc-again-${round}`, 10);
    }
  });

  it('stops every process on SIGTERM, the embedded PostgreSQL included', async () => {
    primary.kill('SIGTERM');
    const ended = await primary.exited;
    assert.equal(ended.code, 0, primary.output().slice(-3000));
    if (!fleet.databaseUrl)
      assert.equal(existsSync(join(fleet.dataDir, 'pg', 'postmaster.pid')), false, 'PostgreSQL was left running');
  });
});
