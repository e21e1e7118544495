import { type DashboardSummary, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

interface SubscriptionSeed {
  status: string;
  type?: string;
  isRecurrent?: boolean;
  cancelAtPeriodEnd?: boolean;
  nextPaymentDate?: string | null;
  /** GRACE only: the window's end (ADR 0081). */
  graceEndsAt?: string;
  createdAt: string;
}

describe('GET /dashboard', () => {
  const clock = new ManualClock(new Date('2026-02-01T08:00:00Z'));
  const now = new Date('2026-03-15T12:00:00Z');
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;
  let dana: ActiveUser;

  /**
   * Subscription payments and refunds have no command on main yet, so these rows go straight into the payments read
   * model (like `seedPaymentRows`); deposits go through the ledger's own command below.
   */
  async function seedPayment(
    type: 'SUBSCRIPTION_PAYMENT' | 'REFUND',
    amountMinor: number,
    at: string,
    status = 'SUCCESS',
  ) {
    await testApp.dataSource.query(
      `INSERT INTO payments (payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator,
         counter_account, correction, created_at, created_by, updated_at, updated_by, search_text, created_by_public,
         updated_by_public)
       VALUES ((SELECT coalesce(max(payment_id), 0) + 1000 FROM payments), $1, $2, $3, 'USD', $4, 'BALANCE', $5,
         'INTERNAL_BALANCE', 'revenue:subscriptions', false, $6, 'seed', $6, 'seed', 'seed', $7, $7)`,
      [dana.userUuid, dana.email, amountMinor, status, type, at, PUBLIC_STAFF_ACTOR_NAME],
    );
  }

  /**
   * The subscription commands are not on main yet, so the dashboard's subscriptions are rows of the subscriptions read
   * model written here in SQL; once they are, these become purchases, cancellations and renewals through the API.
   */
  async function seedSubscription(seed: SubscriptionSeed) {
    await testApp.dataSource.query(
      `INSERT INTO subscriptions (id, user_uuid, user_email, plan_id, plan_name, price_minor, currency, status, type,
         duration_in_month, is_recurrent, cancel_at_period_end, next_payment_date, login, start_date, end_date,
         created_at, created_by, updated_at, updated_by, grace_ends_at)
       VALUES ($1, $2, $3, NULL, NULL, 999, 'USD', $4, $5, 1, $6, $7, $8, $9, $10, NULL, $10, 'seed', $10, 'seed', $11)`,
      [
        randomUUID(),
        dana.userUuid,
        dana.email,
        seed.status,
        seed.type ?? 'REGULAR',
        seed.isRecurrent ?? true,
        seed.cancelAtPeriodEnd ?? false,
        seed.nextPaymentDate ?? null,
        `login-${randomUUID().slice(0, 8)}`,
        seed.createdAt,
        seed.graceEndsAt ?? null,
      ],
    );
  }

  async function depositAt(at: string, amount: number) {
    clock.set(new Date(at));
    return manualPayment(testApp, admin, dana.userUuid, amount, 'dashboard deposit');
  }

  async function correctionAt(at: string, amount: number) {
    clock.set(new Date(at));
    const response = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: dana.userUuid, amount, action: 'DEPOSIT', comment: 'dashboard correction', correction: true });
    expect(response.status).toBe(201);
  }

  const dashboard = (token: string | null) => {
    const call = testApp.http.get('/api/dashboard');
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  };

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    [manager, client, dana] = await Promise.all([
      createActiveUser(testApp, { role: 'MANAGER' }),
      createActiveUser(testApp),
      createActiveUser(testApp, { firstName: 'Dana' }),
    ]);

    // Last month (February): a deposit, one booked late on its last day in UTC (already March in Israel), and a
    // balance correction, which is no money coming in.
    await depositAt('2026-02-10T10:00:00Z', 100);
    await depositAt('2026-02-28T23:30:00Z', 20);
    await correctionAt('2026-02-20T10:00:00Z', 50);
    // This month: two deposits, and one set to FAILED afterwards, which leaves the figures.
    await depositAt('2026-03-02T09:00:00Z', 40.5);
    const failed = await depositAt('2026-03-03T09:00:00Z', 7);
    await depositAt('2026-03-15T08:00:00Z', 10);
    const change = await testApp.http
      .put(`/api/payments/${failed.paymentId}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'FAILED' });
    expect(change.status).toBe(200);

    await seedPayment('SUBSCRIPTION_PAYMENT', 2999, '2026-02-05T10:00:00Z');
    await seedPayment('SUBSCRIPTION_PAYMENT', 999, '2026-03-01T00:30:00Z');
    await seedPayment('SUBSCRIPTION_PAYMENT', 1999, '2026-03-10T10:00:00Z');
    await seedPayment('SUBSCRIPTION_PAYMENT', 4999, '2026-03-11T10:00:00Z', 'PENDING');
    await seedPayment('REFUND', 500, '2026-03-14T10:00:00Z');

    // Running: renewing within the week; cancelled (never renews); renewing later; a trial; unsubscribed (its renewal
    // stopped, its period still running). Not running: expired, pending.
    await seedSubscription({
      status: 'ACTIVE',
      nextPaymentDate: '2026-03-18T00:00:00Z',
      createdAt: '2026-02-01T10:00:00Z',
    });
    await seedSubscription({
      status: 'ACTIVE',
      cancelAtPeriodEnd: true,
      nextPaymentDate: '2026-03-17T00:00:00Z',
      createdAt: '2026-03-02T10:00:00Z',
    });
    await seedSubscription({
      status: 'ACTIVE',
      nextPaymentDate: '2026-03-30T00:00:00Z',
      createdAt: '2026-03-05T10:00:00Z',
    });
    await seedSubscription({
      status: 'ACTIVE',
      type: 'TRIAL_FOR_NEW_USERS',
      isRecurrent: false,
      createdAt: '2026-03-10T10:00:00Z',
    });
    await seedSubscription({ status: 'EXPIRED', createdAt: '2026-01-20T10:00:00Z' });
    await seedSubscription({
      status: 'PENDING',
      nextPaymentDate: '2026-03-16T00:00:00Z',
      createdAt: '2026-03-14T10:00:00Z',
    });
    await seedSubscription({ status: 'UNSUBSCRIBED', createdAt: '2026-02-25T10:00:00Z' });
    // In its grace window (ADR 0081): paused, so not running, but its next renewal attempt is due this week.
    await seedSubscription({
      status: 'GRACE',
      nextPaymentDate: '2026-03-16T00:00:00Z',
      graceEndsAt: '2026-03-17T00:00:00Z',
      createdAt: '2026-01-14T10:00:00Z',
    });
    clock.set(now);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('sets this month (UTC) against last: active subscriptions, revenue, deposits, new ones, renewals due', async () => {
    const response = await dashboard(admin);
    expect(response.status).toBe(200);
    const summary = response.body as DashboardSummary;
    expect(summary).toMatchObject({
      activeSubscriptions: 5,
      // 9.99 + 19.99 − 5 refunded this month; the pending payment does not count.
      revenue: { thisMonth: 24.98, lastMonth: 29.99 },
      // 40.5 + 10 this month (the failed one left); 100 + 20 last month (the correction left out).
      deposits: { thisMonth: 50.5, lastMonth: 120 },
      newSubscriptions: { thisMonth: 4, lastMonth: 2 },
      // The one renewing within the week, and the GRACE one's next attempt (it is not among the active ones).
      renewalsDueThisWeek: 2,
    });
  });

  it('charts the last 30 UTC days, oldest first and today last, with the days without money at zero', async () => {
    const { daily } = (await dashboard(admin)).body as DashboardSummary;
    expect(daily).toHaveLength(30);
    expect(daily[0].date).toBe('2026-02-14');
    expect(daily[29].date).toBe('2026-03-15');
    const byDate = Object.fromEntries(daily.map((day) => [day.date, day]));
    expect(byDate['2026-02-28']).toEqual({ date: '2026-02-28', revenue: 0, deposits: 20 });
    expect(byDate['2026-03-01']).toEqual({ date: '2026-03-01', revenue: 9.99, deposits: 0 });
    expect(byDate['2026-03-02']).toEqual({ date: '2026-03-02', revenue: 0, deposits: 40.5 });
    expect(byDate['2026-03-03']).toEqual({ date: '2026-03-03', revenue: 0, deposits: 0 });
    expect(byDate['2026-03-14']).toEqual({ date: '2026-03-14', revenue: -5, deposits: 0 });
    expect(byDate['2026-03-15']).toEqual({ date: '2026-03-15', revenue: 0, deposits: 10 });
    expect(byDate['2026-02-20']).toEqual({ date: '2026-02-20', revenue: 0, deposits: 0 });
  });

  it('answers zeros for months without activity, as the clock moves on', async () => {
    clock.set(new Date('2026-06-10T12:00:00Z'));
    try {
      const summary = (await dashboard(admin)).body as DashboardSummary;
      expect(summary).toMatchObject({
        activeSubscriptions: 5,
        revenue: { thisMonth: 0, lastMonth: 0 },
        deposits: { thisMonth: 0, lastMonth: 0 },
        newSubscriptions: { thisMonth: 0, lastMonth: 0 },
        // The March renewals the sweep has not run are still due (the GRACE one's too); the cancelled one never is.
        renewalsDueThisWeek: 3,
      });
      expect(summary.daily.every((day) => day.revenue === 0 && day.deposits === 0)).toBe(true);
    } finally {
      clock.set(now);
    }
  });

  it('is for admins only: managers and customers get 403, without a token 401', async () => {
    for (const token of [manager.accessToken, client.accessToken]) {
      const response = await dashboard(token);
      expect([response.status, response.body.error]).toEqual([403, 'error.access.forbidden']);
    }
    expect((await dashboard(null)).status).toBe(401);
  });
});
