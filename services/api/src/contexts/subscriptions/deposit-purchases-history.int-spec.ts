import type { Payment } from '@kupa/proto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ManualClock } from '../../platform/clock';
import { eventually } from '../../test-support/eventually';
import { type FakeCheckoutSession, FakeStripe } from '../../test-support/fake-stripe';
import { adminToken } from '../../test-support/identity-fixtures';
import { kupa, kupaOn } from '../../test-support/kupa-cli';
import { sandboxAct } from '../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { createTestDatabase } from '../../test-support/test-database';
import { balanceMinorOf, expectLedgerVerifyOk, expectReadModelsToEqualReplay } from './subscriptions.fixtures';

const FIXTURES = join(__dirname, '../../test-support/fixtures');
/** The seeding run wrote the backup at 02:27 on 2026-11-29 (its payments' times, in the expected answers). */
const SEEDED_BACKUP_OPENED_AT = new Date('2026-11-29T03:00:00Z');

/** What the seeding run (`deposit-purchases.seed.ts.txt`, on main 8913f0f) recorded beside its backup. */
interface Expected {
  scenarios: Record<string, number>;
  invoices: { cryptoWaiting: string; renewWaiting: string };
  cardWaitingSession: FakeCheckoutSession;
  users: { cryptoWaiting: string; renewWaiting: string; cardWaiting: string };
  verify: { counts: Record<string, number> };
  payments: Record<string, Payment>;
}

/**
 * Tables whose rows the app's background work may change while the spec runs (mails going out, checkpoints moving,
 * counters): not read models, so not part of what a rebuild must reproduce.
 */
const VOLATILE_TABLES = new Set([
  'checkpoints',
  'mail_outbox',
  'rate_limit_windows',
  'provisioning_jobs',
  // The sweeps' schedule: each run moves its next run and lease.
  'job_schedules',
]);
/**
 * Columns a rebuild writes afresh, left out of the comparison: a read model's own serial ids, and the balances'
 * `updated_at`, which a rebuild stamps with the last event's time for every account (as today's main does too).
 */
const REWRITTEN_COLUMNS = ['entry_id', 'id'];
const REWRITTEN_COLUMNS_OF: Readonly<Record<string, readonly string[]>> = { account_balances: ['updated_at'] };

/** Every table's rows (but the volatile ones and renumbered columns), as one digest per table. */
async function tableDigests(url: string): Promise<Map<string, string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'migrations' ORDER BY c.relname`,
    );
    const digests = new Map<string, string>();
    for (const { name } of tables.rows) {
      if (VOLATILE_TABLES.has(name)) continue;
      const [row] = (
        await client.query<{ rows: string; digest: string | null }>(
          `SELECT count(*)::text AS rows,
                  md5(string_agg((to_jsonb(t) - $1::text[])::text, '|' ORDER BY (to_jsonb(t) - $1::text[])::text)) AS digest
             FROM "${name}" t`,
          [[...REWRITTEN_COLUMNS, ...(REWRITTEN_COLUMNS_OF[name] ?? [])]],
        )
      ).rows;
      digests.set(name, `${row.rows} rows, ${row.digest ?? 'empty'}`);
    }
    return digests;
  } finally {
    await client.end();
  }
}

/**
 * A database written by the code of main before deposit purchases had streams of their own (docs/adr/0068): the
 * backup `deposit-purchases.kupa.gz` holds crypto purchases and renewals DONE, FAILED and WAITING and card purchases
 * DONE, FAILED and WAITING, all on the deposits' payment streams. Restored and opened by this build, it migrates,
 * verifies clean, rebuilds every read model to the same rows, answers the same, and a purchase still waiting
 * completes when its money arrives.
 */
describe('deposit purchases written before their own streams', () => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, 'deposit-purchases.expected.json'), 'utf8')) as Expected;
  let workDir: string;
  let stripe: FakeStripe;
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'kupa-deposit-purchases-'));
    const restored = await createTestDatabase();
    const restoredOut = await kupaOn(
      { databaseUrl: restored.url, dataDir: workDir },
      null,
      'restore',
      join(FIXTURES, 'deposit-purchases.kupa.gz'),
      '--json',
    );
    if (restoredOut.code !== 0) throw new Error(`restore failed: ${restoredOut.output}`);
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      database: restored,
      env: { ...stripe.env(), CASHIER_DEPOSIT_MIN: '5', CASHIER_DEPOSIT_MAX: '500' },
      stoppedLoops: ['provisioning-jobs'],
      // Half an hour after the seeding run, as a server opened on that backup soon after: on the system clock the
      // deposits still waiting in it time out a day after it was written, and the spec would read a different day.
      clock: new ManualClock(SEEDED_BACKUP_OPENED_AT),
    });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  const paymentOf = async (paymentId: number): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };

  it('verifies clean with the counts the old code reported', async () => {
    const verified = await kupa(testApp, 'ledger', 'verify', '--json');
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.output)).toMatchObject({
      ok: true,
      differenceCount: 0,
      // Opening the app signs the spec's admin in, which writes events of its own.
      counts: { ...expected.verify.counts, events: expect.any(Number), otherReadModelRows: expect.any(Number) },
    });
    await expectReadModelsToEqualReplay(testApp);
  });

  it('answers every deposit as the old code did', async () => {
    for (const [name, paymentId] of Object.entries(expected.scenarios))
      expect({ name, payment: await paymentOf(paymentId) }).toEqual({ name, payment: expected.payments[name] });
  });

  it('rebuilds every read model from the events to the same rows', async () => {
    const before = await tableDigests(testApp.database.url);
    const rebuilt = await kupa(testApp, 'projections', 'rebuild', '--json');
    expect(rebuilt.code).toBe(0);
    const after = await tableDigests(testApp.database.url);
    expect([...before].filter(([table, digest]) => after.get(table) !== digest).map(([table]) => table)).toEqual([]);
  });

  it('completes a crypto purchase and a renewal that were waiting when their money arrives', async () => {
    for (const [name, invoiceId] of Object.entries(expected.invoices)) {
      const paymentId = expected.scenarios[name];
      expect((await paymentOf(paymentId)).purchase?.status).toBe('WAITING');
      const paid = await sandboxAct(testApp, invoiceId, 'pay');
      expect(paid.body.status).toBe('finished');
      const done = await eventually(
        () => paymentOf(paymentId),
        (payment) => payment.purchase?.status !== 'WAITING',
        `the purchase of deposit ${paymentId} is decided`,
      );
      expect(done).toMatchObject({ status: 'SUCCESS', purchase: { status: 'DONE', errorCode: null } });
    }
    // Both paid exactly their price from what arrived.
    expect(await balanceMinorOf(testApp, expected.users.cryptoWaiting)).toBe(0);
    expect(await balanceMinorOf(testApp, expected.users.renewWaiting)).toBe(0);
  });

  it('completes a card purchase that was waiting when its checkout is paid', async () => {
    const session = { ...expected.cardWaitingSession };
    stripe.sessions.set(session.id, session);
    stripe.pay(session.id);
    const event = stripe.signedEvent('checkout.session.completed', session.id);
    const answer = await testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature)
      .send(event.payload);
    expect(answer.status).toBe(200);
    expect(await paymentOf(expected.scenarios.cardWaiting)).toMatchObject({
      status: 'SUCCESS',
      purchase: { status: 'DONE' },
    });
    expect(await balanceMinorOf(testApp, expected.users.cardWaiting)).toBe(0);
  });

  it('records what the waiting purchases did on their own streams, their requests staying where they were', async () => {
    for (const name of ['cryptoWaiting', 'renewWaiting', 'cardWaiting']) {
      const paymentId = expected.scenarios[name];
      const events: Array<{ stream_id: string; type: string }> = await testApp.dataSource.query(
        `SELECT stream_id, type FROM events WHERE type LIKE 'DepositPurchase%' AND (data->>'paymentId')::bigint = $1
          ORDER BY global_position`,
        [paymentId],
      );
      expect(events).toEqual([
        { stream_id: `payment-${paymentId}`, type: 'DepositPurchaseRequested' },
        { stream_id: `purchase-${paymentId}`, type: 'DepositPurchaseCompleted' },
      ]);
    }
  });

  it('still verifies clean after the new purchases', async () => {
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });
});
