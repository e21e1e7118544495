import type { Payment, Plan, User } from '@kupa/proto';
import { adminToken } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  settled as settledIn,
} from '../../subscriptions.fixtures';

/** The token the test app gives the built-in simulator (test-app.ts). */
const SIMULATOR_TOKEN = 'test-provisioning-token';

/**
 * Provisioning end to end, as the server runs it: the subscription events become jobs, the job runner calls the
 * built-in simulator over HTTP through the production adapter, and the answers activate or refund.
 */
describe('provisioning a subscription at the streaming service', () => {
  let testApp: TestApp;
  let plan: Plan;

  beforeAll(async () => {
    testApp = await startTestApp({
      // Retries a few milliseconds apart, so that the transient case settles quickly.
      env: { PROVISIONING_RETRY_BASE_MS: '20', PROVISIONING_RETRY_MAX_MS: '40', PROVISIONING_RETRY_ATTEMPTS: '3' },
    });
    plan = await createPlan(testApp, { price: 12, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const simulator = () => testApp.http;
  const queueFault = (operation: string, mode: string, times = 1) =>
    simulator()
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`)
      .send({ operation, mode, times })
      .expect(200);
  const accountAtService = async (login: string) =>
    simulator().get(`/api/sandbox/streaming/v1/accounts/${login}`).set('Authorization', `Bearer ${SIMULATOR_TOKEN}`);

  const settled = (subscriptionId: string) => settledIn(testApp, subscriptionId);

  async function balanceOf(userUuid: string): Promise<number> {
    const response = await testApp.http
      .get(`/api/users/${userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`);
    return (response.body as User).balance;
  }

  async function paymentsOf(userUuid: string): Promise<Payment[]> {
    const response = await testApp.http
      .post(`/api/payments/search/${userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({});
    return response.body.content as Payment[];
  }

  it('activates a purchase once the service holds the account, whose expiry is the end date', async () => {
    const customer = await customerWithBalance(testApp, 20);
    const pending = await bought(testApp, customer, plan.id);
    expect(pending.status).toBe('PENDING');

    const active = await settled(pending.id);
    expect(active.status).toBe('ACTIVE');
    expect(active.startDate).not.toBeNull();
    expect(new Date(active.endDate!).getTime()).toBeGreaterThan(new Date(active.startDate!).getTime());
    // The activation's extension reaches the service too: its expiry follows the subscription's end date.
    const deadline = Date.now() + 10_000;
    let account = await accountAtService(active.login);
    while (account.body.expiresAt !== active.endDate && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      account = await accountAtService(active.login);
    }
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ login: active.login, status: 'ACTIVE', expiresAt: active.endDate });
    // The password reached the service and is no longer kept.
    const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query(
      'SELECT count(*) FROM subscription_secrets WHERE subscription_id = $1',
      [active.id],
    );
    expect(Number(count)).toBe(0);
    expect(await balanceOf(customer.userUuid)).toBe(8);
  });

  it('keeps the subscription PENDING through transient failures and activates it when the service recovers', async () => {
    await queueFault('create', 'transient', 2);
    const customer = await customerWithBalance(testApp, 12);
    const pending = await bought(testApp, customer, plan.id);
    expect((await settled(pending.id)).status).toBe('ACTIVE');
    expect(await balanceOf(customer.userUuid)).toBe(0);
  });

  it('refunds the payment and cancels the subscription when the service refuses the account for good', async () => {
    await queueFault('create', 'permanent');
    const customer = await customerWithBalance(testApp, 15);
    const pending = await bought(testApp, customer, plan.id);
    expect(await balanceOf(customer.userUuid)).toBe(3);

    const refused = await settled(pending.id);
    expect(refused.status).toBe('CANCELED');
    expect(await balanceOf(customer.userUuid)).toBe(15);
    const payments = await paymentsOf(customer.userUuid);
    const refund = payments.find((payment) => payment.type === 'REFUND');
    expect(refund).toMatchObject({ status: 'SUCCESS', amount: 12 });
    expect(payments.filter((payment) => payment.type === 'REFUND')).toHaveLength(1);
    // The login was never created, and is free again for another purchase.
    expect((await accountAtService(pending.login)).status).toBe(404);
  });

  it('refunds when the login turns out to be taken at the service', async () => {
    await queueFault('create', 'login_taken');
    const customer = await customerWithBalance(testApp, 12);
    const pending = await bought(testApp, customer, plan.id);
    expect((await settled(pending.id)).status).toBe('CANCELED');
    expect(await balanceOf(customer.userUuid)).toBe(12);
    const [{ reason }]: Array<{ reason: string }> = await testApp.dataSource.query(
      `SELECT data->>'reason' AS reason FROM events WHERE stream_id = $1 AND type = 'SubscriptionProvisioningFailed'`,
      [`subscription-${pending.id}`],
    );
    expect(reason).toBe('LOGIN_TAKEN');
  });

  it('passes a login change on to the service, and leaves every balance and read model explained', async () => {
    const customer = await customerWithBalance(testApp, 12);
    const active = await settled((await bought(testApp, customer, plan.id)).id);
    const renamed = `${active.login}.new`;
    const change = await testApp.http
      .put(`/api/subscriptions/${active.id}/login`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: renamed });
    expect(change.status).toBe(200);
    const deadline = Date.now() + 10_000;
    while ((await accountAtService(renamed)).status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await accountAtService(renamed)).body).toMatchObject({ login: renamed, status: 'ACTIVE' });
    expect((await accountAtService(active.login)).status).toBe(404);

    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
