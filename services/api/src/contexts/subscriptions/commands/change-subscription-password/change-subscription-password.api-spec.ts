import type { Plan } from '@kupa/proto';
import { createActiveUser } from '../../../../test-support/identity-fixtures';
import { activityLogCaughtUp, startTestApp, type TestApp } from '../../../../test-support/test-app';
import { SubscriptionSecrets } from '../../infrastructure/subscription-secrets';
import { bought, countRows, createPlan, customerWithBalance } from '../../subscriptions.fixtures';

describe('PUT /subscriptions/{id}/password', () => {
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

  const change = (token: string, subscriptionId: string, password: string) =>
    testApp.http
      .put(`/api/subscriptions/${subscriptionId}/password`)
      .set('Authorization', `Bearer ${token}`)
      .send({ password });

  it('keeps the newest password beside its event, never in an event or an answer', async () => {
    const [owner, manager] = await Promise.all([
      customerWithBalance(testApp, 10),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
    const subscription = await bought(testApp, owner, plan.id);
    const response = await change(owner.accessToken, subscription.id, 'Owner~Secret 9');
    expect([response.status, response.text]).toEqual([204, '']);
    expect((await change(manager.accessToken, subscription.id, 'Staff~Secret 8')).status).toBe(204);
    expect(await testApp.app.get(SubscriptionSecrets).newest(subscription.id)).toEqual({
      version: 3,
      password: 'Staff~Secret 8',
    });
    expect(await countRows(testApp, `SELECT count(*) FROM events WHERE data::text LIKE '%Secret%'`)).toBe(0);
    await activityLogCaughtUp(testApp);
    expect(await countRows(testApp, `SELECT count(*) FROM audit_logs WHERE changes::text LIKE '%Secret%'`)).toBe(0);
  });

  it('refuses another client (404) and a password against the rule (400)', async () => {
    const [owner, other] = await Promise.all([customerWithBalance(testApp, 10), createActiveUser(testApp)]);
    const subscription = await bought(testApp, owner, plan.id);
    const refused = await change(other.accessToken, subscription.id, 'fine1');
    expect([refused.status, refused.body.error]).toEqual([404, 'error.subscription.not.found']);
    const invalid = await change(owner.accessToken, subscription.id, 'ab');
    expect(invalid.body.details.fields).toEqual([
      { field: 'password', error: 'error.validation.subscription.password' },
    ]);
  });
});
