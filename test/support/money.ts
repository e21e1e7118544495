import assert from 'node:assert/strict';
import type { Client } from 'pg';

/**
 * Money through the real HTTP API, for the fleet and crash tests: an admin's set-up (a one-dollar package, funded
 * clients), money-moving requests that carry an `Idempotency-Key`, and the invariants the ledger must keep whatever
 * processes served them.
 */
export const CLIENT_PASSWORD = 'Fleet-Client-Pass-1!';
export const PLAN_PRICE_MINOR = 100;

export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  return (await call<{ accessToken: string }>(baseUrl, 'POST', '/auth/signin', null, { email, password })).accessToken;
}

export async function createPlan(baseUrl: string, admin: string, name: string): Promise<string> {
  const plan = await call<{ id: string }>(baseUrl, 'POST', '/payment-plans', admin, {
    name,
    durationInMonths: 12,
    isRecurrent: false,
    price: PLAN_PRICE_MINOR / 100,
    currency: 'USD',
    description: 'Fleet package',
    features: ['HD'],
    status: 'ACTIVE',
  });
  return plan.id;
}

export interface FleetClient {
  email: string;
  userUuid: string;
  token: string;
}

/** A CLIENT made by the admin, funded with `dollars` by a manual deposit (none for 0), signed in. */
export async function createClient(
  baseUrl: string,
  admin: string,
  email: string,
  dollars: number,
): Promise<FleetClient> {
  const { userUuid } = await call<{ userUuid: string }>(baseUrl, 'POST', '/users', admin, {
    email,
    password: CLIENT_PASSWORD,
    role: 'CLIENT',
    firstName: 'Fleet',
    lastName: 'Client',
  });
  if (dollars > 0)
    await call(baseUrl, 'POST', '/payments', admin, { userUuid, amount: dollars, action: 'DEPOSIT', comment: 'Float' });
  return { email, userUuid, token: await signIn(baseUrl, email, CLIENT_PASSWORD) };
}

/** A money-moving request and its key: a one-dollar transfer, or a purchase of the one-dollar package. */
export interface MoneyRequest {
  key: string;
  kind: 'transfer' | 'purchase';
  /** Index of the paying client. */
  payer: number;
  path: string;
  body: Record<string, unknown>;
}

export function transferRequest(key: string, payer: number, recipientEmail: string): MoneyRequest {
  return { key, kind: 'transfer', payer, path: '/payments/transfer', body: { recipient: recipientEmail, amount: 1 } };
}

export function purchaseRequest(key: string, payer: number, planId: string, login: string): MoneyRequest {
  return {
    key,
    kind: 'purchase',
    payer,
    path: `/subscriptions/balance/payment-plans/${planId}`,
    body: { login, password: 'fleet-pass' },
  };
}

/** What the client saw: an HTTP status and body, or `network` when no answer came (the process was down). */
export interface Outcome {
  status: number | 'network';
  body: string;
}

export async function send(baseUrl: string, token: string, request: MoneyRequest): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/api${request.path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': request.key },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 'network', body: String(error) };
  }
}

/** The first row's `n`, or 0 when there is no row: an account nothing was ever posted to has no balance row. */
async function number(db: Client, sql: string, parameters: unknown[] = []): Promise<number> {
  const [first] = (await db.query<{ n: string | null }>(sql, parameters)).rows;
  return Number(first?.n ?? 0);
}

export async function balanceMinor(db: Client, userUuid: string): Promise<number> {
  return number(db, 'SELECT balance_minor AS n FROM account_balances WHERE account = $1', [`user:${userUuid}`]);
}

/**
 * The double-entry invariants: the ledger's entries sum to zero, no client's balance is negative, and each client's
 * balance is the sum of its entries.
 */
export async function assertLedgerInvariants(db: Client): Promise<void> {
  assert.equal(await number(db, 'SELECT coalesce(sum(amount_minor), 0) AS n FROM ledger_entries'), 0);
  assert.equal(await number(db, 'SELECT count(*) AS n FROM account_balances WHERE balance_minor < 0'), 0);
  const mismatched = await db.query(
    `SELECT b.account FROM account_balances b
       LEFT JOIN (SELECT account, sum(amount_minor) AS total FROM ledger_entries GROUP BY account) e USING (account)
      WHERE b.balance_minor <> coalesce(e.total, 0)`,
  );
  assert.deepEqual(mismatched.rows, [], 'balances that are not the sum of their entries');
}

/** The subscriptions bought with each login, and the purchase charges booked against them. */
export async function purchasesByLogin(db: Client, logins: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ login: string; n: string }>(
    'SELECT login, count(*) AS n FROM subscriptions WHERE login = ANY($1) GROUP BY login',
    [logins],
  );
  return new Map(rows.rows.map((row) => [row.login, Number(row.n)]));
}

/** Waits until no subscription is PENDING and no provisioning job is left to run. */
export async function waitForProvisioning(db: Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await number(
      db,
      `SELECT (SELECT count(*) FROM subscriptions WHERE status = 'PENDING')
            + (SELECT count(*) FROM provisioning_jobs WHERE status = 'PENDING') AS n`,
    );
    if (left === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${left} subscriptions and provisioning jobs still pending: ${await provisioningState(db)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What a stalled provisioning looks like, for the failure message: jobs by state, subscriptions without a job, checkpoints. */
async function provisioningState(db: Client): Promise<string> {
  const jobs = await db.query(
    `SELECT status, operation, attempts, next_attempt_at > now() AS waiting, left(coalesce(last_error, ''), 120) AS error,
            count(*)::int AS n
       FROM provisioning_jobs GROUP BY 1, 2, 3, 4, 5 ORDER BY n DESC LIMIT 10`,
  );
  const jobless = await db.query(
    `SELECT count(*)::int AS n FROM subscriptions s
      WHERE s.status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM provisioning_jobs j WHERE j.subscription_id = s.id)`,
  );
  const checkpoints = await db.query(
    `SELECT name, commit_position::text AS at, (SELECT max(commit_position)::text FROM event_commits) AS head
       FROM checkpoints`,
  );
  return JSON.stringify({ jobs: jobs.rows, pendingWithoutJob: jobless.rows[0]?.n, checkpoints: checkpoints.rows });
}
