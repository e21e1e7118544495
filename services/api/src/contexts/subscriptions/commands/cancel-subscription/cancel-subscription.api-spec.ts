import type { Plan } from '@kupa/proto';
import { CommandBus } from '@nestjs/cqrs';
import { systemContext } from '../../../../platform/auth';
import { ManualClock } from '../../../../platform/clock';
import { createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { EndSubscriptionCommand } from '../end-subscription/end-subscription.command';
import {
  activate,
  bought,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';

describe('DELETE /subscriptions/{id}', () => {
  let testApp: TestApp;
  let clock: ManualClock;
  let plan: Plan;

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-01-31T10:00:00Z'));
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ clock, stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const cancel = (token: string, subscriptionId: string) =>
    testApp.http.delete(`/api/subscriptions/${subscriptionId}`).set('Authorization', `Bearer ${token}`);

  it('keeps it ACTIVE to its end date without a next payment, then it ends CANCELED', async () => {
    const customer = await customerWithBalance(testApp, 10);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    // 31 January + one month ends on the last day of February.
    expect(active.endDate).toBe('2026-02-28T10:00:00.000Z');
    expect(active.nextPaymentDate).toBe('2026-02-25T10:00:00.000Z');
    const response = await cancel(customer.accessToken, active.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true, nextPaymentDate: null });
    expect((await cancel(customer.accessToken, active.id)).status).toBe(200);
    const commands = testApp.app.get(CommandBus);
    await commands.execute(new EndSubscriptionCommand(active.id, systemContext()));
    expect((await read(testApp, active.id)).status).toBe('ACTIVE');
    clock.set(new Date('2026-02-28T10:00:00Z'));
    await commands.execute(new EndSubscriptionCommand(active.id, systemContext(), '42'));
    expect((await read(testApp, active.id)).status).toBe('CANCELED');
    const again = await cancel(customer.accessToken, active.id);
    expect([again.status, again.body.error]).toEqual([409, 'error.subscription.ended']);
    clock.set(new Date('2026-01-31T10:00:00Z'));
  });

  it("lets staff cancel anyone's; another client gets 404", async () => {
    const [owner, other, manager] = await Promise.all([
      customerWithBalance(testApp, 10),
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
    const subscription = await bought(testApp, owner, plan.id);
    const refused = await cancel(other.accessToken, subscription.id);
    expect([refused.status, refused.body.error]).toEqual([404, 'error.subscription.not.found']);
    const cancelled = await cancel(manager.accessToken, subscription.id);
    expect([cancelled.status, cancelled.body.cancelAtPeriodEnd, cancelled.body.updatedBy]).toEqual([
      200,
      true,
      manager.email,
    ]);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
