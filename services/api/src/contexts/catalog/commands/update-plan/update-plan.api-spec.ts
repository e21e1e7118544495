import type { Plan } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  auditEntriesOf,
  createPlan,
  eventCount,
  expectReadModelsToEqualReplay,
  planRequest,
} from '../../catalog.fixtures';

describe('PUT /payment-plans/{id}', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [manager, client] = await Promise.all([createActiveUser(testApp, { role: 'MANAGER' }), createActiveUser(testApp)]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const update = (planId: string, body: unknown, token: string | null = admin) => {
    const call = testApp.http.put(`/api/payment-plans/${planId}`);
    return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body as object);
  };
  const requestOf = ({ id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...request }: Plan) => request;

  it('sets every term of a package nothing refers to, price and duration included', async () => {
    const plan = await createPlan(testApp);
    const changed = {
      ...requestOf(plan),
      name: `${plan.name} renamed`,
      price: 49.5,
      durationInMonths: 12 as const,
      isRecurrent: false,
      description: '',
      features: ['4K'],
    };
    const response = await update(plan.id, changed);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...changed,
      id: plan.id,
      createdAt: plan.createdAt,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(plan.createdAt));
  });

  it('logs only the fields that changed, and a status change as well when the status differs', async () => {
    const plan = await createPlan(testApp, { price: 10 });
    await update(plan.id, { ...requestOf(plan), price: 12, status: 'INACTIVE' }).expect(200);
    // Both events of the one append share an instant, so the log lists them in either order.
    const entries = await auditEntriesOf(testApp, plan.id);
    expect(entries.map((entry) => [entry.operationType, entry.eventType, entry.changes])).toEqual(
      expect.arrayContaining([
        ['UPDATED', 'PaymentPlanUpdated', [{ field: 'price', oldValue: 10, newValue: 12 }]],
        ['UPDATED', 'PaymentPlanStatusChanged', [{ field: 'status', oldValue: 'ACTIVE', newValue: 'INACTIVE' }]],
      ]),
    );
    expect(entries).toHaveLength(3);
  });

  it('records nothing when the package already has those values', async () => {
    const plan = await createPlan(testApp);
    const before = await eventCount(testApp);
    const response = await update(plan.id, { ...requestOf(plan), name: ` ${plan.name} ` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(plan);
    expect(await eventCount(testApp)).toBe(before);
  });

  it("refuses another package's name but keeps its own", async () => {
    const [first, second] = [await createPlan(testApp), await createPlan(testApp)];
    const taken = await update(second.id, { ...requestOf(second), name: first.name.toUpperCase() });
    expect([taken.status, taken.body.error]).toEqual([409, 'error.payment.plan.already.exists']);
    const ownInAnotherCase = await update(first.id, { ...requestOf(first), name: first.name.toLowerCase() });
    expect([ownInAnotherCase.status, ownInAnotherCase.body.name]).toEqual([200, first.name.toLowerCase()]);
  });

  it('answers 404 for a package that does not exist, or a malformed id', async () => {
    for (const planId of ['7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e', 'abc', '7D1C2A52-96A4-4F8E-9D55-3A0D4C6C1F0E']) {
      const response = await update(planId, planRequest());
      expect([planId, response.status, response.body.error]).toEqual([planId, 404, 'error.payment.plan.not.found']);
    }
    const streams = await testApp.dataSource.query(`SELECT 1 FROM streams WHERE stream_id = $1`, [
      'plan-7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
    ]);
    expect(streams).toEqual([]);
  });

  it('refuses invalid terms and unknown fields', async () => {
    const plan = await createPlan(testApp);
    const tooExpensive = await update(plan.id, { ...requestOf(plan), price: 100000 });
    expect(tooExpensive.body.details.fields).toEqual([
      { field: 'price', error: 'error.validation.max', params: { max: 99999.99 } },
    ]);
    const withId = await update(plan.id, { ...requestOf(plan), id: plan.id });
    expect(withId.body.details.fields).toEqual([{ field: 'id', error: 'error.validation.unknown.field' }]);
  });

  it('refuses null in an optional field instead of reading it as absent, and keeps the package as it was', async () => {
    const plan = await createPlan(testApp, { cardPaymentAllowed: false });
    const response = await update(plan.id, { ...requestOf(plan), cardPaymentAllowed: null });
    expect(response.status).toBe(400);
    expect(response.body.details.fields).toEqual([
      { field: 'cardPaymentAllowed', error: 'error.validation.not.nullable' },
    ]);
    const kept = await testApp.http.get(`/api/payment-plans/${plan.id}`).set('Authorization', `Bearer ${admin}`);
    expect(kept.body).toMatchObject({ cardPaymentAllowed: false, updatedAt: plan.updatedAt });
  });

  it('is for admins only', async () => {
    const plan = await createPlan(testApp);
    const body = { ...requestOf(plan), name: 'Not allowed' };
    expect((await update(plan.id, body, null)).status).toBe(401);
    expect((await update(plan.id, body, manager.accessToken)).status).toBe(403);
    expect((await update(plan.id, body, client.accessToken)).status).toBe(403);
    const read = await testApp.http.get(`/api/payment-plans/${plan.id}`).set('Authorization', `Bearer ${admin}`);
    expect(read.body.name).toBe(plan.name);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
