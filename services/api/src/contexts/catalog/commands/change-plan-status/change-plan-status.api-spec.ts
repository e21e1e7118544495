import type { Page, Plan } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { auditEntriesOf, createPlan, eventCount, expectReadModelsToEqualReplay } from '../../catalog.fixtures';

describe('PUT /payment-plans/{id}/status', () => {
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

  const changeStatus = (planId: string, body: unknown, token: string | null = admin) => {
    const call = testApp.http.put(`/api/payment-plans/${planId}/status`);
    return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body as object);
  };
  const clientSees = async (planId: string) => {
    const read = await testApp.http
      .get(`/api/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${client.accessToken}`);
    const search = await testApp.http
      .post('/api/payment-plans/search')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ size: 100 });
    return {
      read: read.status,
      listed: (search.body as Page<Plan>).content.some((plan) => plan.id === planId),
    };
  };

  it('takes a package out of sale for clients and offers it again', async () => {
    const plan = await createPlan(testApp);
    expect(await clientSees(plan.id)).toEqual({ read: 200, listed: true });
    const deactivated = await changeStatus(plan.id, { status: 'INACTIVE' });
    expect([deactivated.status, deactivated.body.status]).toEqual([200, 'INACTIVE']);
    expect(await clientSees(plan.id)).toEqual({ read: 404, listed: false });
    const reactivated = await changeStatus(plan.id, { status: 'ACTIVE' });
    expect(reactivated.body).toEqual({ ...plan, updatedAt: expect.any(String) });
    expect(await clientSees(plan.id)).toEqual({ read: 200, listed: true });
  });

  it('logs each change with the status before and after; the same status again records nothing', async () => {
    const plan = await createPlan(testApp);
    await changeStatus(plan.id, { status: 'INACTIVE' }).expect(200);
    const before = await eventCount(testApp);
    await changeStatus(plan.id, { status: 'INACTIVE' }).expect(200);
    expect(await eventCount(testApp)).toBe(before);
    const entries = await auditEntriesOf(testApp, plan.id);
    expect(entries.map((entry) => [entry.operationType, entry.eventType, entry.changes])).toEqual([
      ['CREATED', 'PaymentPlanCreated', expect.any(Array)],
      ['UPDATED', 'PaymentPlanStatusChanged', [{ field: 'status', oldValue: 'ACTIVE', newValue: 'INACTIVE' }]],
    ]);
  });

  it('refuses an unknown status, a missing package and a malformed id', async () => {
    const plan = await createPlan(testApp);
    const unknown = await changeStatus(plan.id, { status: 'ARCHIVED' });
    expect(unknown.body.details.fields).toEqual([{ field: 'status', error: 'error.validation.invalid.field' }]);
    const missing = await changeStatus('7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e', { status: 'ACTIVE' });
    expect([missing.status, missing.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    const malformed = await changeStatus('search', { status: 'ACTIVE' });
    expect([malformed.status, malformed.body.error]).toEqual([404, 'error.payment.plan.not.found']);
  });

  it('is for admins only', async () => {
    const plan = await createPlan(testApp);
    expect((await changeStatus(plan.id, { status: 'INACTIVE' }, null)).status).toBe(401);
    expect((await changeStatus(plan.id, { status: 'INACTIVE' }, manager.accessToken)).status).toBe(403);
    expect((await changeStatus(plan.id, { status: 'INACTIVE' }, client.accessToken)).status).toBe(403);
    expect(await clientSees(plan.id)).toEqual({ read: 200, listed: true });
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
