import { type AuditLog, auditSentence, type DashboardSummary, type Page, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/** The dashboard's queue of what needs a person (docs/product.md, Dashboard). */
describe('GET /dashboard: the queue of what needs a person', () => {
  const clock = new ManualClock(new Date('2026-03-01T08:00:00Z'));
  const now = new Date('2026-03-15T12:00:00Z');
  let testApp: TestApp;
  let admin: string;
  let dana: ActiveUser;

  const at = async <T>(instant: string, act: () => Promise<T>): Promise<T> => {
    clock.set(new Date(instant));
    return act();
  };

  /** Read-model rows for what has no command to reach it in a test: a payment held for review, a GRACE subscription. */
  /** A card checkout paid in another currency, or a crypto deposit above the maximum (ADR 0058). */
  async function seedReviewPayment(amountMinor: number, createdAt: string, via: 'CARD' | 'CRYPTO'): Promise<number> {
    const [method, aggregator, counterAccount] =
      via === 'CARD' ? ['CARD', 'STRIPE', 'world:card'] : ['CRYPTO_USDT_TRC20', 'CASHIER', 'world:cashier'];
    const rows: Array<{ payment_id: string }> = await testApp.dataSource.query(
      `INSERT INTO payments (payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator,
         counter_account, correction, created_at, created_by, updated_at, updated_by, search_text, created_by_public,
         updated_by_public)
       VALUES ((SELECT coalesce(max(payment_id), 0) + 1000 FROM payments), $1, $2, $3, 'USD', 'REVIEW', $6,
         'DEPOSIT', $7, $8, false, $4, 'seed', $4, 'seed', 'seed', $5, $5)
       RETURNING payment_id::text`,
      [dana.userUuid, dana.email, amountMinor, createdAt, PUBLIC_STAFF_ACTOR_NAME, method, aggregator, counterAccount],
    );
    return Number(rows[0].payment_id);
  }

  async function seedSubscription(status: string, nextPaymentDate: string | null): Promise<string> {
    const id = randomUUID();
    await testApp.dataSource.query(
      `INSERT INTO subscriptions (id, user_uuid, user_email, plan_id, plan_name, price_minor, currency, status, type,
         duration_in_month, is_recurrent, cancel_at_period_end, next_payment_date, login, start_date, end_date,
         created_at, created_by, updated_at, updated_by, grace_ends_at)
       VALUES ($1, $2, $3, NULL, NULL, 999, 'USD', $4, 'REGULAR', 1, true, false, $5, $6, $7, NULL, $7, 'seed', $7,
         'seed', $8)`,
      [
        id,
        dana.userUuid,
        dana.email,
        status,
        nextPaymentDate,
        `login-${id.slice(0, 8)}`,
        '2026-02-01T00:00:00Z',
        status === 'GRACE' ? '2026-03-18T00:00:00Z' : null,
      ],
    );
    return id;
  }

  async function seedFailedJob(subscriptionId: string, finishedAt: string, causation: number) {
    await testApp.dataSource.query(
      `INSERT INTO provisioning_jobs (id, subscription_id, operation, parameters, causation_event_id, status, attempts,
         next_attempt_at, last_error, created_at, finished_at)
       VALUES ($1, $2, 'EXTEND_ACCOUNT', '{}', $3, 'FAILED', 5, $4, 'rejected', $4, $4)`,
      [randomUUID(), subscriptionId, causation, finishedAt],
    );
  }

  beforeAll(async () => {
    testApp = await startTestApp({ clock, env: { LARGE_DEPOSIT_MIN: '500' } });
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp, { firstName: 'Dana' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const queue = async () => {
    const response = await testApp.http.get('/api/dashboard').set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return Object.fromEntries((response.body as DashboardSummary).queue.map((group) => [group.kind, group]));
  };

  it('lists each kind with its count and latest few, and drops what is cleared or out of its window', async () => {
    // Deposits: one large within the week, one large eight days old, one small, a large balance correction.
    const large = await at('2026-03-14T09:00:00Z', () => manualPayment(testApp, admin, dana.userUuid, 600, 'wire'));
    await at('2026-03-07T09:00:00Z', () => manualPayment(testApp, admin, dana.userUuid, 900, 'old wire'));
    await at('2026-03-14T10:00:00Z', () => manualPayment(testApp, admin, dana.userUuid, 100, 'small'));
    const correction = await at('2026-03-14T11:00:00Z', () =>
      testApp.http
        .post('/api/payments')
        .set('Authorization', `Bearer ${admin}`)
        .send({ userUuid: dana.userUuid, amount: 700, action: 'DEPOSIT', comment: 'fix', correction: true }),
    );
    expect(correction.status).toBe(201);
    const review = await seedReviewPayment(4200, '2026-03-13T10:00:00Z', 'CARD');
    const cryptoReview = await seedReviewPayment(15000, '2026-03-12T10:00:00Z', 'CRYPTO');
    const grace = await seedSubscription('GRACE', '2026-03-16T00:00:00Z');
    await seedSubscription('ACTIVE', '2026-03-20T00:00:00Z');
    const failed = await seedSubscription('ACTIVE', '2026-03-25T00:00:00Z');
    await seedFailedJob(failed, '2026-03-12T10:00:00Z', 900_001);
    await seedFailedJob(failed, '2026-03-01T10:00:00Z', 900_002);
    clock.set(now);

    const groups = await queue();
    expect(Object.keys(groups)).toEqual(['PROVISIONING_FAILED', 'RENEWAL_FAILED', 'PAYMENT_REVIEW', 'LARGE_DEPOSIT']);
    expect(groups.PROVISIONING_FAILED).toEqual({
      kind: 'PROVISIONING_FAILED',
      count: 1,
      latest: [{ id: failed, userEmail: dana.email, amount: null, at: '2026-03-12T10:00:00.000Z' }],
    });
    expect(groups.RENEWAL_FAILED.count).toBe(1);
    expect(groups.RENEWAL_FAILED.latest[0]).toMatchObject({ id: grace, amount: null });
    // Card and crypto payments waiting for review alike, newest first.
    expect(groups.PAYMENT_REVIEW).toMatchObject({
      count: 2,
      latest: [
        { id: String(review), amount: 42 },
        { id: String(cryptoReview), amount: 150 },
      ],
    });
    expect(groups.LARGE_DEPOSIT).toEqual({
      kind: 'LARGE_DEPOSIT',
      count: 1,
      latest: [{ id: String(large.paymentId), userEmail: dana.email, amount: 600, at: '2026-03-14T09:00:00.000Z' }],
    });

    // A large deposit set to FAILED leaves the queue; a week later the failed job has aged out of it too.
    const failedDeposit = await testApp.http
      .put(`/api/payments/${large.paymentId}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'FAILED', confirmNegativeBalance: true });
    expect(failedDeposit.status).toBe(200);
    clock.set(new Date('2026-03-20T12:00:00Z'));
    const later = await queue();
    expect(later.LARGE_DEPOSIT.count).toBe(0);
    expect(later.PROVISIONING_FAILED).toEqual({ kind: 'PROVISIONING_FAILED', count: 0, latest: [] });
    expect(later.PAYMENT_REVIEW.count).toBe(2);
  });

  it('lets an admin mark a large deposit seen: it leaves the queue at once, once, and the log says who', async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'));
    const large = await manualPayment(testApp, admin, dana.userUuid, 800, 'big wire');
    const small = await manualPayment(testApp, admin, dana.userUuid, 100, 'small wire');
    expect((await queue()).LARGE_DEPOSIT.latest.map((item) => item.id)).toEqual([String(large.paymentId)]);
    const acknowledge = (paymentId: number | string, token = admin) =>
      testApp.http
        .post(`/api/payments/${paymentId}/large-deposit-acknowledgement`)
        .set('Authorization', `Bearer ${token}`);

    expect((await acknowledge(large.paymentId)).status).toBe(204);
    expect((await queue()).LARGE_DEPOSIT).toEqual({ kind: 'LARGE_DEPOSIT', count: 0, latest: [] });
    // A second press (another admin, a double click) changes nothing and logs nothing more.
    expect((await acknowledge(large.paymentId)).status).toBe(204);

    const refused = await acknowledge(small.paymentId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('error.payment.not.large.deposit');
    expect((await acknowledge(999_999_999)).status).toBe(404);
    expect((await acknowledge('abc')).status).toBe(404);
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect((await acknowledge(large.paymentId, manager.accessToken)).status).toBe(403);
    expect((await acknowledge(large.paymentId, dana.accessToken)).status).toBe(403);

    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [String(large.paymentId)] });
    const seen = (log.body as Page<AuditLog>).content.filter((entry) => entry.eventType === 'LargeDepositAcknowledged');
    expect(seen).toHaveLength(1);
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(plain(auditSentence(seen[0], 'en'))).toMatch(
      new RegExp(`^Payment #${large.paymentId} of Dana .+: large deposit marked as seen by .+$`),
    );
    expect(plain(auditSentence(seen[0], 'he'))).toContain('ההפקדה הגדולה סומנה כנבדקה על ידי');
  });
});
