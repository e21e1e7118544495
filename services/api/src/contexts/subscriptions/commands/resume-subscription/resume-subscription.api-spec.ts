import type { Plan } from '@kupa/proto';
import { CommandBus } from '@nestjs/cqrs';
import { systemContext } from '../../../../platform/auth';
import { ManualClock } from '../../../../platform/clock';
import { createActiveUser } from '../../../../test-support/identity-fixtures';
import { activityLogCaughtUp, startTestApp, type TestApp } from '../../../../test-support/test-app';
import { EndSubscriptionCommand } from '../end-subscription/end-subscription.command';
import {
  activate,
  bought,
  countRows,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';

describe('POST /subscriptions/{id}/resume', () => {
  let testApp: TestApp;
  let clock: ManualClock;
  let plan: Plan;
  const start = new Date('2026-01-31T10:00:00Z');

  beforeAll(async () => {
    clock = new ManualClock(start);
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ clock, stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
  });

  afterEach(() => clock.set(start));

  afterAll(async () => {
    await testApp.close();
  });

  const cancel = (token: string, subscriptionId: string) =>
    testApp.http.delete(`/api/subscriptions/${subscriptionId}`).set('Authorization', `Bearer ${token}`);
  const resume = (token: string, subscriptionId: string) =>
    testApp.http.post(`/api/subscriptions/${subscriptionId}/resume`).set('Authorization', `Bearer ${token}`);

  it('withdraws a cancellation before the end: ACTIVE, renewing by itself again, in the activity log', async () => {
    const customer = await customerWithBalance(testApp, 10);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    expect((await cancel(customer.accessToken, active.id)).body).toMatchObject({ nextPaymentDate: null });

    clock.set(new Date('2026-02-20T09:00:00Z'));
    const response = await resume(customer.accessToken, active.id);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatchObject({
      status: 'ACTIVE',
      cancelAtPeriodEnd: false,
      endDate: '2026-02-28T10:00:00.000Z',
      nextPaymentDate: '2026-02-25T10:00:00.000Z',
    });
    await activityLogCaughtUp(testApp);
    expect(
      await countRows(
        testApp,
        `SELECT count(*) FROM audit_logs WHERE event_type = 'SubscriptionResumed' AND target_id = $1`,
        [active.id],
      ),
    ).toBe(1);

    const again = await resume(customer.accessToken, active.id);
    expect([again.status, again.body.error]).toEqual([409, 'error.subscription.not.cancelled']);
  });

  it('refuses at the end date (too late), and once it ended CANCELED (ended)', async () => {
    const customer = await customerWithBalance(testApp, 10);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    await cancel(customer.accessToken, active.id);

    clock.set(new Date('2026-02-28T10:00:00Z'));
    const late = await resume(customer.accessToken, active.id);
    expect([late.status, late.body.error]).toEqual([409, 'error.subscription.resume.too.late']);
    await testApp.app.get(CommandBus).execute(new EndSubscriptionCommand(active.id, systemContext(), '43'));
    expect((await read(testApp, active.id)).status).toBe('CANCELED');
    const ended = await resume(customer.accessToken, active.id);
    expect([ended.status, ended.body.error]).toEqual([409, 'error.subscription.ended']);
  });

  it("lets staff resume anyone's; another client, and an id that is no uuid, get 404", async () => {
    const [owner, other, manager] = await Promise.all([
      customerWithBalance(testApp, 10),
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
    const subscription = await activate(testApp, (await bought(testApp, owner, plan.id)).id);
    await cancel(owner.accessToken, subscription.id);
    const refused = await resume(other.accessToken, subscription.id);
    expect([refused.status, refused.body.error]).toEqual([404, 'error.subscription.not.found']);
    const resumed = await resume(manager.accessToken, subscription.id);
    expect([resumed.status, resumed.body.cancelAtPeriodEnd, resumed.body.updatedBy]).toEqual([
      200,
      false,
      manager.email,
    ]);
    expect((await resume(owner.accessToken, 'not-a-uuid')).body.error).toBe('error.subscription.not.found');
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
