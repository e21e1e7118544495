import { adminToken, createActiveUser, type ActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { createPlan } from '../../catalog.fixtures';

describe('GET /payment-plans/{id}', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;
  let ambassador: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [manager, client, ambassador] = await Promise.all([
      createActiveUser(testApp, { role: 'MANAGER' }),
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'AMBASSADOR' }),
    ]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const get = (planId: string, token: string | null) => {
    const call = testApp.http.get(`/api/payment-plans/${planId}`);
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  };

  it('shows an ACTIVE package to everyone signed in', async () => {
    const plan = await createPlan(testApp);
    // Staff also read how many subscriptions use it (ADR 0078); customers read the package alone.
    for (const token of [admin, manager.accessToken]) {
      const response = await get(plan.id, token);
      expect([response.status, response.body]).toEqual([200, { ...plan, subscriptionCount: 0 }]);
    }
    for (const token of [client.accessToken, ambassador.accessToken]) {
      const response = await get(plan.id, token);
      expect([response.status, response.body]).toEqual([200, plan]);
    }
    expect((await get(plan.id, null)).status).toBe(401);
  });

  it('shows an INACTIVE package to staff only: customers get the same 404 as for a missing one', async () => {
    const plan = await createPlan(testApp, { status: 'INACTIVE' });
    expect((await get(plan.id, admin)).body.status).toBe('INACTIVE');
    expect((await get(plan.id, manager.accessToken)).status).toBe(200);
    for (const token of [client.accessToken, ambassador.accessToken]) {
      const response = await get(plan.id, token);
      expect([response.status, response.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    }
  });

  it('answers 404 for a missing package and for any id that is not a canonical uuid', async () => {
    for (const planId of ['7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e', 'search', '1', '%20']) {
      const response = await get(planId, admin);
      expect([planId, response.status, response.body.error]).toEqual([planId, 404, 'error.payment.plan.not.found']);
    }
  });
});
