import {
  type AuditLog,
  auditSentence,
  type NotificationPage,
  type Page,
  type Plan,
  type Subscription,
} from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { eventually } from '../../../../test-support/eventually';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  settled,
} from '../../subscriptions.fixtures';

/** The token the test app gives the built-in streaming simulator (test-app.ts). */
const SIMULATOR_TOKEN = 'test-provisioning-token';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('POST /subscriptions/{id}/extension', () => {
  let testApp: TestApp;
  let plan: Plan;

  beforeAll(async () => {
    testApp = await startTestApp();
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const extend = (token: string, subscriptionId: string, body: object, idempotencyKey?: string) => {
    const request = testApp.http
      .post(`/api/subscriptions/${subscriptionId}/extension`)
      .set('Authorization', `Bearer ${token}`);
    if (idempotencyKey) request.set('Idempotency-Key', idempotencyKey);
    return request.send(body);
  };
  const accountAtService = (login: string) =>
    testApp.http
      .get(`/api/sandbox/streaming/v1/accounts/${login}`)
      .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`)
      .then((response) => response.body as { expiresAt: string; status: string });
  const plusDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY_MS).toISOString();

  it("adds the days to the end, moves the streaming account's expiry, and says so in the activity log", async () => {
    const admin = await adminToken(testApp);
    const customer = await customerWithBalance(testApp, 10);
    const active = await settled(testApp, (await bought(testApp, customer, plan.id)).id);

    const response = await extend(admin, active.id, { days: 2, reason: '  Outage on Sunday  ' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const endDate = plusDays(active.endDate as string, 2);
    expect(response.body).toMatchObject({ status: 'ACTIVE', endDate, nextPaymentDate: plusDays(endDate, -3) });

    const account = await eventually(
      () => accountAtService(active.login),
      (seen) => seen.expiresAt === endDate,
      'the streaming account expires at the new end date',
    );
    expect(account.status).toBe('ACTIVE');

    const audit = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [active.id] });
    const entry = (audit.body as Page<AuditLog>).content.find((log) => log.eventType === 'SubscriptionExtended');
    expect(entry).toBeDefined();
    const sentence = auditSentence(entry as AuditLog, 'en').replace(/[\u2066-\u2069]/g, '');
    expect(sentence).toContain(': +2 days: Outage on Sunday by ');
    expect(auditSentence(entry as AuditLog, 'he').replace(/[\u2066-\u2069]/g, '')).toContain(
      '+2 ימים: Outage on Sunday',
    );
  });

  it('tells its owner the days and the reason, on the subscription and as a notification, never who; nobody else', async () => {
    const admin = await adminToken(testApp);
    const customer = await customerWithBalance(testApp, 10);
    const other = await customerWithBalance(testApp, 10);
    const active = await settled(testApp, (await bought(testApp, customer, plan.id)).id);
    expect((await extend(admin, active.id, { days: 2, reason: 'Outage on Sunday' })).status).toBe(200);
    expect((await extend(admin, active.id, { days: 1, reason: 'Sorry again' })).status).toBe(200);

    const detail = await testApp.http
      .get(`/api/subscriptions/${active.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(detail.status).toBe(200);
    expect(detail.headers['cache-control']).toBe('no-store');
    const { extensions } = detail.body as Subscription;
    expect(extensions).toEqual([
      expect.objectContaining({ days: 2, reason: 'Outage on Sunday', source: 'STAFF' }),
      expect.objectContaining({ days: 1, reason: 'Sorry again', source: 'STAFF', endDate: detail.body.endDate }),
    ]);
    // The client reads the reason, not which staff member added the days.
    expect(Object.keys(extensions?.[0] ?? {}).sort()).toEqual(['days', 'endDate', 'extendedAt', 'reason', 'source']);

    const notices = async (token: string) => {
      const response = await testApp.http
        .post('/api/notifications/search')
        .set('Authorization', `Bearer ${token}`)
        .send({ page: 0, size: 20 })
        .expect(200);
      return (response.body as NotificationPage).content.filter((row) => row.kind === 'extended');
    };
    const told = await eventually(
      () => notices(customer.accessToken),
      (rows) => rows.length === 2,
      'both extensions told to the owner',
    );
    expect(told.map((row) => row.params).sort((a, b) => (a.days ?? 0) - (b.days ?? 0))).toEqual([
      expect.objectContaining({ subscriptionId: active.id, days: 1, reason: 'Sorry again', source: 'STAFF' }),
      expect.objectContaining({
        subscriptionId: active.id,
        planName: plan.name,
        days: 2,
        reason: 'Outage on Sunday',
        link: `/subscriptions/${active.id}`,
      }),
    ]);
    expect(JSON.stringify(told)).not.toMatch(/actorId|@/);

    // Another client sees neither the subscription nor its notifications.
    const foreign = await testApp.http
      .get(`/api/subscriptions/${active.id}`)
      .set('Authorization', `Bearer ${other.accessToken}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('Outage on Sunday');
    expect(await notices(other.accessToken)).toEqual([]);
  });

  it('adds the days once for a repeated Idempotency-Key, and again for a new request', async () => {
    const admin = await adminToken(testApp);
    const customer = await customerWithBalance(testApp, 10);
    const active = await settled(testApp, (await bought(testApp, customer, plan.id)).id);
    const body = { days: 3, reason: 'Sorry for the wait' };
    const first = await extend(admin, active.id, body, 'extend-once-1');
    const again = await extend(admin, active.id, body, 'extend-once-1');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.endDate).toBe(plusDays(active.endDate as string, 3));
    const other = await extend(admin, active.id, body);
    expect(other.body.endDate).toBe(plusDays(active.endDate as string, 6));
  });

  it('refuses bad days and a blank reason (400), and is for admins only', async () => {
    const admin = await adminToken(testApp);
    const customer = await customerWithBalance(testApp, 20);
    const pending = await bought(testApp, customer, plan.id);
    const active = await settled(testApp, pending.id);
    for (const body of [
      { days: 0, reason: 'x' },
      { days: 367, reason: 'x' },
      { days: 1.5, reason: 'x' },
      { days: 2, reason: '   ' },
      { days: 2, reason: 'x'.repeat(256) },
      { days: 2 },
    ]) {
      const refused = await extend(admin, active.id, body);
      expect([refused.status, refused.body.error]).toEqual([400, 'error.validation.failed']);
    }
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect((await extend(manager.accessToken, active.id, { days: 2, reason: 'x' })).status).toBe(403);
    expect((await extend(customer.accessToken, active.id, { days: 2, reason: 'x' })).status).toBe(403);
    const missing = await extend(admin, '6f1d3c1e-8a0b-4c8e-9b55-4d1f7b2b9a10', { days: 2, reason: 'x' });
    expect([missing.status, missing.body.error]).toEqual([404, 'error.subscription.not.found']);
  });

  it('refuses a PENDING subscription: its period has not started', async () => {
    const stopped = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    try {
      const stoppedPlan = await createPlan(stopped, { price: 10, durationInMonths: 1 });
      const customer = await customerWithBalance(stopped, 10);
      const pending = await bought(stopped, customer, stoppedPlan.id);
      const refused = await stopped.http
        .post(`/api/subscriptions/${pending.id}/extension`)
        .set('Authorization', `Bearer ${await adminToken(stopped)}`)
        .send({ days: 2, reason: 'Too early' });
      expect([refused.status, refused.body.error]).toEqual([409, 'error.subscription.not.extendable']);
    } finally {
      await stopped.close();
    }
  });

  it('leaves the read models equal to a replay and the ledger verified', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
