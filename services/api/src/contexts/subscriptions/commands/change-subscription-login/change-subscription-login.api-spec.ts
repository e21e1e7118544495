import type { Plan } from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  bought,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
  uniqueLogin,
} from '../../subscriptions.fixtures';

describe('PUT /subscriptions/{id}/login', () => {
  let testApp: TestApp;
  let plan: Plan;

  beforeAll(async () => {
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const change = (token: string, subscriptionId: string, login: string) =>
    testApp.http
      .put(`/api/subscriptions/${subscriptionId}/login`)
      .set('Authorization', `Bearer ${token}`)
      .send({ login });

  it('changes the login for the owner and for staff; another client gets 404', async () => {
    const [owner, other] = await Promise.all([customerWithBalance(testApp, 10), createActiveUser(testApp)]);
    const subscription = await bought(testApp, owner, plan.id);
    const mine = uniqueLogin();
    const response = await change(owner.accessToken, subscription.id, mine);
    expect([response.status, response.body.login]).toEqual([200, mine]);
    const staffs = uniqueLogin('staff');
    expect((await change(await adminToken(testApp), subscription.id, staffs)).body.login).toBe(staffs);
    const refused = await change(other.accessToken, subscription.id, uniqueLogin());
    expect([refused.status, refused.body.error]).toEqual([404, 'error.subscription.not.found']);
  });

  it('refuses a login another live subscription holds (409) and an invalid one (400)', async () => {
    const [first, second] = await Promise.all([customerWithBalance(testApp, 10), customerWithBalance(testApp, 10)]);
    const [one, two] = [await bought(testApp, first, plan.id), await bought(testApp, second, plan.id)];
    const taken = await change(second.accessToken, two.id, one.login);
    expect([taken.status, taken.body.error]).toEqual([409, 'error.login.already.exists']);
    const invalid = await change(second.accessToken, two.id, 'NO');
    expect(invalid.body.details.fields).toEqual([{ field: 'login', error: 'error.validation.subscription.login' }]);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
