import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import {
  type Fleet,
  fleetDatabaseUrl,
  type KupaProcess,
  prepareFleet,
  startKupaProcess,
} from '../support/kupa-fleet.ts';
import { CLIENT_PASSWORD, createClient, type FleetClient, signIn } from '../support/money.ts';

/**
 * Rate limits hold for the fleet, not per process (docs/adr/0057-shared-rate-limits-and-no-sign-in-lock-out.md): two
 * API processes of the built server on one database, requests alternating between them, and every limit refuses the
 * request after its count in total. With counters in each process's memory, each process allowed the count again.
 */
const ADMIN_EMAIL = 'limits-admin@example.com';
const ADMIN_PASSWORD = 'Limits-Admin-Pass-1!';
const PAIR_FAILURES = 3;
const ADDRESS_FAILURES = 5;
const ACCOUNT_FAILURES = 4;
const SIGN_UPS = 3;
const MAIL_REQUESTS = 3;
const LOOKUPS_PER_ACCOUNT = 3;
const LOOKUPS_PER_ADDRESS = 5;
const WRONG_PASSWORD = 'Wrong-Pass-1!';

describe('rate limits across two API processes', { timeout: 240_000 }, () => {
  let fleet: Fleet;
  let apiA: KupaProcess;
  let apiB: KupaProcess;
  let apis: string[];
  let admin: string;
  let db: Client;
  let clients: FleetClient[];
  const stamp = Date.now().toString(36);

  /** The request number `index` goes to API A when even, to API B when odd. */
  const post = (index: number, path: string, body: unknown, address: string, token?: string) =>
    fetch(`${apis[index % 2]}/api${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        // Both processes trust the loopback proxy, so this names the client address the limits count.
        'X-Forwarded-For': address,
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  /** Sends `count` requests alternating between the APIs and answers their statuses, then one more through each. */
  const statusesThroughBoth = async (count: number, send: (index: number) => Promise<Response>) => {
    const statuses: number[] = [];
    for (let index = 0; index < count + 2; index += 1) statuses.push((await send(index)).status);
    return statuses;
  };

  before(async () => {
    fleet = await prepareFleet({
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT_AND_ADDRESS: `${PAIR_FAILURES}/15m`,
      RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS: `${ADDRESS_FAILURES}/1h`,
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: `${ACCOUNT_FAILURES}/1h`,
      RATE_LIMIT_SIGNUPS_PER_ADDRESS: `${SIGN_UPS}/1h`,
      RATE_LIMIT_MAIL_REQUESTS_PER_ADDRESS: `${MAIL_REQUESTS}/15m`,
      RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ACCOUNT: `${LOOKUPS_PER_ACCOUNT}/15m`,
      RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ADDRESS: `${LOOKUPS_PER_ADDRESS}/15m`,
    });
    const startA = () => startKupaProcess(fleet, { name: 'API A', role: 'api', env: { ADMIN_EMAIL, ADMIN_PASSWORD } });
    const startB = () => startKupaProcess(fleet, { name: 'API B', role: 'api' });
    // On the embedded database the first process starts PostgreSQL and the second attaches to it.
    if (fleet.databaseUrl) [apiA, apiB] = await Promise.all([startA(), startB()]);
    else [apiA, apiB] = [await startA(), await startB()];
    apis = [apiA.baseUrl ?? '', apiB.baseUrl ?? ''];
    admin = await signIn(apis[0], ADMIN_EMAIL, ADMIN_PASSWORD);
    clients = [];
    for (let index = 0; index < 5; index += 1)
      clients.push(await createClient(apis[index % 2], admin, `limits-${stamp}-${index}@example.com`, 0));
    db = new Client({ connectionString: fleetDatabaseUrl(fleet) });
    await db.connect();
  });

  after(async () => {
    await db?.end();
    await apiB?.stop();
    // The API that started the embedded PostgreSQL stops last, and stops it.
    await apiA?.stop();
    await fleet?.close();
  });

  it('holds failed sign-ins per account and address in total', async () => {
    const statuses = await statusesThroughBoth(PAIR_FAILURES, (index) =>
      post(index, '/auth/signin', { email: clients[0].email, password: WRONG_PASSWORD }, '203.0.113.1'),
    );
    assert.deepEqual(statuses, [...Array<number>(PAIR_FAILURES).fill(401), 429, 429]);
  });

  it('holds failed sign-ins per address across accounts in total', async () => {
    const statuses = await statusesThroughBoth(ADDRESS_FAILURES, (index) =>
      post(
        index,
        '/auth/signin',
        { email: `ghost-${stamp}-${index}@example.com`, password: WRONG_PASSWORD },
        '203.0.113.2',
      ),
    );
    assert.deepEqual(statuses, [...Array<number>(ADDRESS_FAILURES).fill(401), 429, 429]);
  });

  it('slows an account down across addresses in total, and its owner still signs in from a fresh address', async () => {
    const email = clients[1].email;
    for (let index = 0; index < ACCOUNT_FAILURES; index += 1) {
      const guess = await post(index, '/auth/signin', { email, password: WRONG_PASSWORD }, `198.51.100.${index + 1}`);
      assert.equal(guess.status, 401);
    }
    // Per process, each API would have counted half of the failures and let these addresses try again.
    for (const index of [0, 1]) {
      const again = await post(index, '/auth/signin', { email, password: WRONG_PASSWORD }, `198.51.100.${index + 1}`);
      assert.equal(again.status, 429);
    }
    const owner = await post(1, '/auth/signin', { email, password: CLIENT_PASSWORD }, '198.51.100.200');
    assert.equal(owner.status, 200, await owner.text());
  });

  it('holds sign-ups per address in total', async () => {
    const statuses = await statusesThroughBoth(SIGN_UPS, (index) =>
      post(
        index,
        '/auth/signup',
        {
          email: `signup-${stamp}-${index}@example.com`,
          password: 'Limits-Signup-1!',
          firstName: 'L',
          lastName: 'S',
          termsAccepted: true,
        },
        '203.0.113.3',
      ),
    );
    assert.deepEqual(statuses, [...Array<number>(SIGN_UPS).fill(201), 429, 429]);
  });

  it('holds mail requests per address in total', async () => {
    const statuses = await statusesThroughBoth(MAIL_REQUESTS, (index) =>
      post(index, '/password/forgot', { email: clients[2].email }, '203.0.113.4'),
    );
    assert.equal(
      statuses.slice(0, MAIL_REQUESTS).every((status) => status < 300),
      true,
      String(statuses),
    );
    assert.deepEqual(statuses.slice(MAIL_REQUESTS), [429, 429]);
  });

  it('holds recipient look-ups per account and per address in total', async () => {
    const lookUp = (index: number, from: FleetClient, address: string) =>
      post(index, '/payments/transfer/recipient', { recipient: clients[4].email }, address, from.token);
    const perAccount = await statusesThroughBoth(LOOKUPS_PER_ACCOUNT, (index) =>
      lookUp(index, clients[0], `203.0.113.${10 + index}`),
    );
    assert.deepEqual(perAccount, [...Array<number>(LOOKUPS_PER_ACCOUNT).fill(200), 429, 429]);

    // Three other accounts from one address, none of them near its own limit: their look-ups add up per address,
    // whichever process served them.
    const perAddress = await statusesThroughBoth(LOOKUPS_PER_ADDRESS, (index) =>
      lookUp(index, clients[1 + (index % 3)], '203.0.113.20'),
    );
    assert.deepEqual(perAddress, [...Array<number>(LOOKUPS_PER_ADDRESS).fill(200), 429, 429]);
  });

  it('keeps the counters in the one table both processes share', async () => {
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit_windows');
    assert.ok(rows.rows[0].n > 0);
  });
});
