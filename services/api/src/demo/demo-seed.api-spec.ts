import type { DashboardSummary, NotificationPage, Plan } from '@kupa/proto';
import { eventually } from '../test-support/eventually';
import { signIn } from '../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../test-support/test-app';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../contexts/identity';
import { seedDemoHistory } from '../demo-start';
import { DEMO_CATALOGUE } from './demo-catalogue';
import { DEMO_HISTORY_DAYS, DemoSeed } from './demo-seed';
import { expectLedgerVerifyOk } from '../test-support/ledger-verification';

const emailOf = (role: string) => DEMO_ACCOUNTS.find((account) => account.role === role)?.email as string;

describe('the embedded demo seed', () => {
  let testApp: TestApp;

  const started = new Date();

  beforeAll(async () => {
    // A fresh database with DEMO_DATA on: the seed's own app runs first, as `npm start` on the embedded database does.
    testApp = await startTestApp({
      env: { DEMO_DATA: '1' },
      beforeStart: ({ config, databaseUrl }) =>
        seedDemoHistory({ config, databaseUrl, version: '0.0.0-test', quiet: true }, started),
    });
  }, 120_000);

  afterAll(async () => {
    await testApp.close();
  });

  const get = async (path: string, role: string) => {
    const token = await signIn(testApp, emailOf(role), DEMO_PASSWORD);
    return testApp.http.get(path).set('Authorization', `Bearer ${token}`);
  };

  it('leaves a ledger that verifies clean, every event written through the commands', async () => {
    const verification = await expectLedgerVerifyOk(testApp);
    expect(verification.counts.payments).toBeGreaterThanOrEqual(5);
  });

  it('gives the first client packages for sale, in both languages', async () => {
    const token = await signIn(testApp, emailOf('CLIENT'), DEMO_PASSWORD);
    const page = await testApp.http.post('/api/payment-plans/search').set('Authorization', `Bearer ${token}`).send({});
    const onSale = DEMO_CATALOGUE.filter((plan) => plan.status === 'ACTIVE');
    expect((page.body.content as Plan[]).map((plan) => plan.name).sort()).toEqual(
      onSale.map((plan) => plan.name).sort(),
    );
    expect((page.body.content as Plan[]).every((plan) => plan.nameEn !== '')).toBe(true);
  });

  it('gives the admin a dashboard with figures: deposits, revenue, new and active subscriptions', async () => {
    const response = await get('/api/dashboard', 'ADMIN');
    expect(response.status).toBe(200);
    const dashboard = response.body as DashboardSummary;
    expect(dashboard.deposits.thisMonth).toBeGreaterThan(0);
    expect(dashboard.revenue.thisMonth).toBeGreaterThan(0);
    expect(dashboard.newSubscriptions.thisMonth).toBeGreaterThan(0);
    expect(dashboard.daily.some((day) => day.deposits > 0)).toBe(true);
  });

  it('shows the history: the ambassador bonus, the transfer, the cancelled subscription and the referral', async () => {
    const payments: Array<{ type: string; user_email: string }> = await testApp.dataSource.query(
      `SELECT type, user_email FROM payments ORDER BY payment_id`,
    );
    const types = payments.map((payment) => payment.type);
    expect(types).toEqual(expect.arrayContaining(['DEPOSIT', 'SUBSCRIPTION_PAYMENT']));
    expect(types).toContain('AMBASSADOR_BONUS');
    expect(types).toEqual(expect.arrayContaining(['TRANSFER_OUT', 'TRANSFER_IN']));
    const cancelled: unknown[] = await testApp.dataSource.query(
      `SELECT 1 FROM events WHERE type = 'SubscriptionCancelled'`,
    );
    expect(cancelled).toHaveLength(1);
    const ambassador = await get('/api/users/me', 'AMBASSADOR');
    expect(ambassador.body.referrals).toMatchObject({ totalReferrals: 1 });
  });

  it('spreads the history over months: money moved in at least three calendar months, none after the start', async () => {
    const months: Array<{ month: string }> = await testApp.dataSource.query(
      `SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM payments
        WHERE status = 'SUCCESS' AND type IN ('DEPOSIT', 'SUBSCRIPTION_PAYMENT')`,
    );
    expect(months.length).toBeGreaterThanOrEqual(3);
    const [span] = await testApp.dataSource.query(
      `SELECT min(created_at) AS first, max(created_at) AS last FROM payments`,
    );
    expect(new Date(span.first).getTime()).toBeLessThanOrEqual(
      started.getTime() - (DEMO_HISTORY_DAYS - 1) * 86_400_000,
    );
    expect(new Date(span.last).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('renews the monthly package by itself, and has an expired and a cancelled-and-ended subscription', async () => {
    const renewals: Array<{ automatic: string }> = await testApp.dataSource.query(
      `SELECT data->>'automatic' AS automatic FROM events WHERE type = 'SubscriptionRenewed'`,
    );
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    expect(renewals.every((renewal) => renewal.automatic === 'true')).toBe(true);
    const ended: Array<{ status: string }> = await testApp.dataSource.query(
      `SELECT status FROM subscriptions WHERE status IN ('EXPIRED', 'CANCELED') ORDER BY status`,
    );
    // The ambassador's two-month package and the one the client bought by card have both run out.
    expect(ended.map((row) => row.status)).toEqual(['CANCELED', 'EXPIRED', 'EXPIRED']);
    // The ambassador's safety-net package is in its grace window (below), not ACTIVE.
    const active: unknown[] = await testApp.dataSource.query(`SELECT 1 FROM subscriptions WHERE status = 'ACTIVE'`);
    expect(active).toHaveLength(3);
  });

  it("shows the safety net: the ambassador's package in its grace window, with both reminders", async () => {
    const grace: Array<{ login: string; grace_ends_at: Date; end_date: Date }> = await testApp.dataSource.query(
      `SELECT login, grace_ends_at, end_date FROM subscriptions WHERE status = 'GRACE'`,
    );
    expect(grace.map((row) => row.login)).toEqual(['ron.home']);
    // Still renewable when the demo starts: its window closes after today, its end was before it.
    expect(grace[0].grace_ends_at.getTime()).toBeGreaterThan(started.getTime());
    expect(grace[0].end_date.getTime()).toBeLessThanOrEqual(started.getTime());
    const token = await signIn(testApp, emailOf('AMBASSADOR'), DEMO_PASSWORD);
    const kinds = await eventually(
      async () => {
        const response = await testApp.http
          .post('/api/notifications/search')
          .set('Authorization', `Bearer ${token}`)
          .send({ page: 0, size: 20 });
        return (response.body as NotificationPage).content.map((notification) => notification.kind).sort();
      },
      (found) => found.includes('grace-started') && found.includes('renewal-failed'),
      "the ambassador's grace-started and renewal-failed notifications",
    );
    expect(kinds.filter((kind) => kind === 'grace-started' || kind === 'renewal-failed')).toEqual([
      'grace-started',
      'renewal-failed',
    ]);
  });

  it("makes the safety net the card story: the ambassador's saved test card is declined, and the reminder says so", async () => {
    // Saved on the sandbox's setup page, the card declined for insufficient funds, and chosen to pay the renewal.
    const token = await signIn(testApp, emailOf('AMBASSADOR'), DEMO_PASSWORD);
    const saved = await testApp.http.get('/api/users/me/saved-card').set('Authorization', `Bearer ${token}`);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ available: true, provider: 'SANDBOX', card: { brand: 'visa', last4: '9995' } });
    const [net]: Array<{ id: string; funding: string }> = await testApp.dataSource.query(
      `SELECT id, renewal_funding AS funding FROM subscriptions WHERE login = 'ron.home'`,
    );
    expect(net.funding).toBe('CARD');
    // The sweep charged it off-session once for the period, through the real adapter: declined, nothing booked.
    const attempts: Array<{ type: string; outcome: string | null; declineCode: string | null }> =
      await testApp.dataSource.query(
        `SELECT type, data->>'outcome' AS outcome, data->>'declineCode' AS "declineCode" FROM events
          WHERE stream_id = $1 AND type LIKE 'SubscriptionCardRenewal%' ORDER BY global_position`,
        [`subscription-${net.id}`],
      );
    expect(attempts).toEqual([
      { type: 'SubscriptionCardRenewalStarted', outcome: null, declineCode: null },
      { type: 'SubscriptionCardRenewalFailed', outcome: 'DECLINED', declineCode: 'insufficient_funds' },
    ]);
    const intents: Array<{ status: string }> = await testApp.dataSource.query(
      `SELECT body->>'status' AS status FROM sandbox_card_payment_intents`,
    );
    expect(intents).toEqual([{ status: 'requires_payment_method' }]);
    const cardMoney: unknown[] = await testApp.dataSource.query(
      `SELECT 1 FROM payments WHERE aggregator = 'STRIPE' AND user_email = $1`,
      [emailOf('AMBASSADOR')],
    );
    expect(cardMoney).toEqual([]);
    // The renewal-failed reminder names the declined card.
    const failed = await eventually(
      async () => {
        const response = await testApp.http
          .post('/api/notifications/search')
          .set('Authorization', `Bearer ${token}`)
          .send({ page: 0, size: 20 });
        return (response.body as NotificationPage).content.filter(
          (notification) => notification.kind === 'renewal-failed',
        );
      },
      (found) => found.length > 0,
      "the ambassador's renewal-failed notification",
    );
    expect(failed).toHaveLength(1);
    expect(failed[0].params).toMatchObject({ cardFailure: 'DECLINED' });
  });

  it('has a crypto deposit paid through the sandbox cashier and credited by its IPN', async () => {
    const crypto: Array<{ status: string; method: string; amount: number }> = await testApp.dataSource.query(
      `SELECT status, method, amount_minor::int AS amount FROM payments WHERE aggregator = 'CASHIER'`,
    );
    expect(crypto).toEqual([{ status: 'SUCCESS', method: 'CRYPTO_USDT_TRC20', amount: 5000 }]);
  });

  it('has a package bought by card through the sandbox card, credited and bought by its signed webhook', async () => {
    const card: Array<{ status: string; amount: number; provider: string; session: string; userEmail: string }> =
      await testApp.dataSource.query(
        `SELECT status, amount_minor::int AS amount, card_provider AS provider, card_checkout_session_id AS session,
                user_email AS "userEmail"
           FROM payments WHERE aggregator = 'STRIPE' AND method = 'CARD'`,
      );
    expect(card).toEqual([
      {
        status: 'SUCCESS',
        amount: 2490,
        provider: 'SANDBOX',
        session: expect.stringMatching(/^cs_test_sandbox_/),
        userEmail: emailOf('CLIENT'),
      },
    ]);
    // Nobody paid it: the credit comes from the sandbox card's account, and Stripe's holds nothing (ADR 0080).
    const accounts: Array<{ account: string; amount: number }> = await testApp.dataSource.query(
      `SELECT account, sum(amount_minor)::int AS amount FROM ledger_entries
        WHERE event_type = 'CardDepositCredited' AND account LIKE 'world:%' GROUP BY account`,
    );
    expect(accounts).toEqual([{ account: 'world:sandbox-card', amount: -2490 }]);
    const sessions: Array<{ status: string; paymentStatus: string }> = await testApp.dataSource.query(
      `SELECT status, payment_status AS "paymentStatus" FROM sandbox_card_sessions`,
    );
    expect(sessions).toEqual([{ status: 'complete', paymentStatus: 'paid' }]);
    // The admin's payments list finds it by its method, as staff would.
    const token = await signIn(testApp, emailOf('ADMIN'), DEMO_PASSWORD);
    const listed = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${token}`)
      .send({ methods: ['CARD'] });
    expect(listed.status).toBe(200);
    expect(listed.body.content).toEqual([
      expect.objectContaining({ aggregator: 'STRIPE', method: 'CARD', amount: 24.9 }),
    ]);
    const bought: Array<{ login: string; status: string }> = await testApp.dataSource.query(
      `SELECT login, status FROM subscriptions WHERE login = 'dana.match'`,
    );
    expect(bought).toEqual([{ login: 'dana.match', status: 'EXPIRED' }]);
  });

  it('seeds once: a second start adds no event', async () => {
    const [before] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM events`);
    expect(await testApp.app.get(DemoSeed).seed()).toBeNull();
    expect(await seedDemoHistory({ config: testApp.config, databaseUrl: testApp.database.url, version: '0' })).toBe(
      false,
    );
    const [after] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM events`);
    expect(after.count).toBe(before.count);
  });
});
