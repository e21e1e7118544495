import { randomUUID } from 'node:crypto';
import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  bought,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';

describe('POST /subscriptions/deactivate-recurrent?paymentPlanId=', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const deactivate = (user: ActiveUser, planId: string) =>
    testApp.http
      .post('/api/subscriptions/deactivate-recurrent')
      .query({ paymentPlanId: planId })
      .set('Authorization', `Bearer ${user.accessToken}`);

  it("stops the renewals of the caller's subscriptions on the package: UNSUBSCRIBED, to the end date", async () => {
    const plan = await createPlan(testApp, { price: 10 });
    const [customer, neighbour] = await Promise.all([
      customerWithBalance(testApp, 20),
      customerWithBalance(testApp, 10),
    ]);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    const pending = await bought(testApp, customer, plan.id);
    const neighbours = await activate(testApp, (await bought(testApp, neighbour, plan.id)).id);
    expect((await deactivate(customer, plan.id)).status).toBe(204);
    expect(await read(testApp, active.id)).toMatchObject({
      status: 'UNSUBSCRIBED',
      endDate: active.endDate,
      nextPaymentDate: null,
    });
    // Switched off before it started: it starts UNSUBSCRIBED.
    expect((await activate(testApp, pending.id)).status).toBe('UNSUBSCRIBED');
    expect((await read(testApp, neighbours.id)).status).toBe('ACTIVE');
    expect((await deactivate(customer, plan.id)).status).toBe(204);
    const renewal = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId: active.id });
    expect([renewal.status, renewal.body.error]).toEqual([409, 'error.insufficient.balance']);
  });

  it('answers 404 when the caller holds nothing on the package, 400 without a package id, 403 for staff', async () => {
    const client = await createActiveUser(testApp);
    const none = await deactivate(client, randomUUID());
    expect([none.status, none.body.error]).toEqual([404, 'error.subscription.not.found']);
    const missing = await testApp.http
      .post('/api/subscriptions/deactivate-recurrent')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(missing.status).toBe(400);
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect((await deactivate(manager, randomUUID())).status).toBe(403);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
