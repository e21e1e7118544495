import type { Plan } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  bought,
  countRows,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
} from '../../subscriptions.fixtures';

describe('POST /subscriptions/renew/balance', () => {
  let testApp: TestApp;
  let plan: Plan;

  beforeAll(async () => {
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const renew = (customer: ActiveUser, subscriptionId: string) =>
    testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId });
  const paymentCount = (customer: ActiveUser) =>
    countRows(testApp, `SELECT count(*) FROM payments WHERE user_uuid = $1 AND type = 'SUBSCRIPTION_PAYMENT'`, [
      customer.userUuid,
    ]);
  const addMonth = (iso: string) => {
    const date = new Date(iso);
    date.setUTCMonth(date.getUTCMonth() + 1);
    return date;
  };

  it('extends a running subscription from its end by one period, charging the balance', async () => {
    const customer = await customerWithBalance(testApp, 30);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    const response = await renew(customer, active.id);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ACTIVE');
    // Not clamped: the activation was moments ago, and no month in the test's future lacks its day… except when it
    // does, which the decider's calendar specs cover; here the new end is one calendar month after the old one.
    const expected = addMonth(active.endDate as string);
    if (new Date(active.endDate as string).getUTCDate() === expected.getUTCDate())
      expect(response.body.endDate).toBe(expected.toISOString());
    expect(new Date(response.body.nextPaymentDate).getTime()).toBe(
      new Date(response.body.endDate).getTime() - 3 * 24 * 60 * 60 * 1000,
    );
    expect(await paymentCount(customer)).toBe(2);
  });

  it('two renewals at once: exactly one goes through, the other is already renewed', async () => {
    const customer = await customerWithBalance(testApp, 50);
    const active = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    const answers = await Promise.all([renew(customer, active.id), renew(customer, active.id)]);
    expect(answers.map((answer) => `${answer.status} ${answer.body.error ?? ''}`.trim()).sort()).toEqual([
      '200',
      '409 error.subscription.already.renewed',
    ]);
    expect(await paymentCount(customer)).toBe(2);
  });

  it('refuses a PENDING subscription, a short balance, and writes nothing', async () => {
    const customer = await customerWithBalance(testApp, 15);
    const pending = await bought(testApp, customer, plan.id);
    const refused = await renew(customer, pending.id);
    expect([refused.status, refused.body.error]).toEqual([409, 'error.subscription.not.renewable']);
    await activate(testApp, pending.id);
    const short = await renew(customer, pending.id);
    expect([short.status, short.body.error]).toEqual([409, 'error.insufficient.balance']);
    expect(await paymentCount(customer)).toBe(1);
  });

  it("answers 404 for another client's subscription or an unknown one, and staff may not renew", async () => {
    const [owner, other] = await Promise.all([customerWithBalance(testApp, 20), customerWithBalance(testApp, 20)]);
    const active = await activate(testApp, (await bought(testApp, owner, plan.id)).id);
    for (const subscriptionId of [active.id, randomUUID()]) {
      const response = await renew(other, subscriptionId);
      expect([response.status, response.body.error]).toEqual([404, 'error.subscription.not.found']);
    }
    const staff = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ subscriptionId: active.id });
    expect(staff.status).toBe(403);
    const malformed = await renew(owner, 'nope');
    expect(malformed.body.details.fields[0]).toMatchObject({ field: 'subscriptionId' });
  });

  it('passes kupa ledger verify: chains, the ledger and every read model equal to a replay', async () => {
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });
});
