import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { auditEntriesOf, createPlan, expectReadModelsToEqualReplay, planRequest } from '../../catalog.fixtures';

/**
 * A package a subscription refers to cannot be deleted nor repriced: proven with a real purchase in the subscriptions
 * context's `buy-subscription.api-spec.ts`, and for both answers by the plan decider's specs.
 */
describe('DELETE /payment-plans/{id}', () => {
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

  const remove = (planId: string, token: string | null = admin) => {
    const call = testApp.http.delete(`/api/payment-plans/${planId}`);
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  };
  const read = (planId: string) =>
    testApp.http.get(`/api/payment-plans/${planId}`).set('Authorization', `Bearer ${admin}`);

  it('deletes a package nothing refers to; afterwards it is missing for every call', async () => {
    const plan = await createPlan(testApp, { status: 'INACTIVE' });
    expect((await remove(plan.id)).status).toBe(204);
    expect((await read(plan.id)).body.error).toBe('error.payment.plan.not.found');
    const again = await remove(plan.id);
    expect([again.status, again.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    const status = await testApp.http
      .put(`/api/payment-plans/${plan.id}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'ACTIVE' });
    expect([status.status, status.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    const search = await testApp.http
      .post('/api/payment-plans/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({});
    expect(search.body.content.map((listed: { id: string }) => listed.id)).not.toContain(plan.id);
  });

  it('frees the name for a new package', async () => {
    const plan = await createPlan(testApp);
    await remove(plan.id).expect(204);
    const successor = await createPlan(testApp, { name: plan.name });
    expect(successor.id).not.toBe(plan.id);
  });

  it('logs the deletion with every value ending', async () => {
    const plan = await createPlan(testApp, { price: 15 });
    await remove(plan.id).expect(204);
    const entries = await auditEntriesOf(testApp, plan.id);
    const deletion = entries[entries.length - 1];
    // The package is gone, so the log names it by the name its entries recorded, and says so.
    expect(deletion).toMatchObject({
      operationType: 'DELETED',
      eventType: 'PaymentPlanDeleted',
      target: { type: 'PACKAGE', id: plan.id, name: plan.name, nameRecorded: true },
    });
    expect(deletion.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', oldValue: plan.name, newValue: null },
        { field: 'price', oldValue: 15, newValue: null },
      ]),
    );
  });

  it('answers 404 for a package that never existed or a malformed id', async () => {
    for (const planId of ['7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e', 'not-a-uuid']) {
      const response = await remove(planId);
      expect([planId, response.status, response.body.error]).toEqual([planId, 404, 'error.payment.plan.not.found']);
    }
  });

  it('is for admins only, and takes no body', async () => {
    const plan = await createPlan(testApp, planRequest());
    expect((await remove(plan.id, null)).status).toBe(401);
    expect((await remove(plan.id, manager.accessToken)).status).toBe(403);
    expect((await remove(plan.id, client.accessToken)).status).toBe(403);
    const withBody = await remove(plan.id).send({ force: true });
    expect(withBody.body.details.fields).toEqual([{ field: 'force', error: 'error.validation.unknown.field' }]);
    expect((await read(plan.id)).status).toBe(200);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
