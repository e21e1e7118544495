import { addCalendarMonths, type Payment, type Plan, type User } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { adminToken } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { exactExpiryLatenessMs } from '../../domain/first-period';
import {
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  settled as settledIn,
} from '../../subscriptions.fixtures';
import { PROVISIONING_REQUESTS_PROCESSOR } from './provisioning-requests.processor';

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
    // The account was created expiring at the end date (ADR 0136: a prompt activation counts from the purchase).
    const account = await accountAtService(active.login);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ login: active.login, status: 'ACTIVE', expiresAt: active.endDate });
    // The password reached the service and is no longer kept (forgotten with the job's DONE mark, just after).
    const deadline = Date.now() + 10_000;
    const secretsLeft = async () => {
      const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query(
        'SELECT count(*) FROM subscription_secrets WHERE subscription_id = $1',
        [active.id],
      );
      return Number(count);
    };
    while ((await secretsLeft()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await secretsLeft()).toBe(0);
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

/**
 * ADR 0136: a purchase whose account comes promptly counts its period from the purchase, whose end the account was
 * created with, and needs one provisioning job; one whose account comes late counts from the activation and gets a
 * second job that sets the account's expiry. Time is a hand-moved clock, so "late" is exact.
 */
describe('the first period and the provisioning jobs it needs', () => {
  const clock = new ManualClock(new Date('2026-01-31T10:00:00.000Z'));
  let testApp: TestApp;
  let plan: Plan;

  beforeAll(async () => {
    testApp = await startTestApp({
      clock,
      env: { PROVISIONING_RETRY_BASE_MS: '1000', PROVISIONING_RETRY_MAX_MS: '1000' },
    });
    plan = await createPlan(testApp, { price: 12, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 15_000;
    let value = await read();
    while (!done(value)) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      value = await read();
    }
    return value;
  }

  const jobsOf = (subscriptionId: string) =>
    testApp.dataSource.query(
      `SELECT operation, status, attempts, parameters->>'expiresAt' AS "expiresAt" FROM provisioning_jobs
        WHERE subscription_id = $1 ORDER BY seq`,
      [subscriptionId],
    ) as Promise<Array<{ operation: string; status: string; attempts: number; expiresAt: string | null }>>;

  /** Every event committed so far has been seen by the processor that enqueues the jobs. */
  async function provisioningProcessorCaughtUp(): Promise<void> {
    await until(
      async () => {
        const [row]: Array<{ behind: boolean }> = await testApp.dataSource.query(
          `SELECT (SELECT coalesce(max(commit_position), 0) FROM event_commits)
                > (SELECT commit_position FROM checkpoints WHERE name = $1) AS behind`,
          [PROVISIONING_REQUESTS_PROCESSOR],
        );
        return row.behind;
      },
      (behind) => !behind,
      'the provisioning processor',
    );
  }

  const accountAtService = async (login: string) =>
    testApp.http.get(`/api/sandbox/streaming/v1/accounts/${login}`).set('Authorization', `Bearer ${SIMULATOR_TOKEN}`);

  it('ends a prompt purchase after one job, its period from the purchase to the purchase + the duration', async () => {
    const customer = await customerWithBalance(testApp, 12);
    const boughtAt = clock.now();
    const pending = await bought(testApp, customer, plan.id);
    clock.advanceMs(2 * 60_000);
    const active = await settledIn(testApp, pending.id);
    expect(active.status).toBe('ACTIVE');
    expect(active.startDate).toBe(boughtAt.toISOString());
    // 31 January + one month: the last day of February, at the purchase's time.
    expect(active.endDate).toBe(addCalendarMonths(boughtAt, 1).toISOString());
    expect(active.endDate).toBe('2026-02-28T10:00:00.000Z');
    await until(
      () => jobsOf(pending.id),
      (jobs) => jobs.every((job) => job.status === 'DONE'),
      'the jobs to finish',
    );
    await provisioningProcessorCaughtUp();
    expect(await jobsOf(pending.id)).toEqual([
      { operation: 'CREATE_ACCOUNT', status: 'DONE', attempts: 1, expiresAt: active.endDate },
    ]);
    expect((await accountAtService(active.login)).body).toMatchObject({ status: 'ACTIVE', expiresAt: active.endDate });
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });

  it('gives a late purchase a second job, its period from the activation to the activation + the duration', async () => {
    await testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`)
      .send({ operation: 'create', mode: 'transient', times: 1 })
      .expect(200);
    const customer = await customerWithBalance(testApp, 12);
    const boughtAt = clock.now();
    const pending = await bought(testApp, customer, plan.id);
    // The failed attempt is recorded (its retry scheduled by the clock as it is now).
    await until(
      async () =>
        (await testApp.dataSource.query(
          `SELECT last_error FROM provisioning_jobs WHERE subscription_id = $1 AND operation = 'CREATE_ACCOUNT'`,
          [pending.id],
        )) as Array<{ last_error: string | null }>,
      (rows) => Boolean(rows[0]?.last_error),
      'the first, failed attempt',
    );
    // The retry runs past the lateness bound, as after the service was down for a while.
    clock.advanceMs(exactExpiryLatenessMs + 60_000);
    const activatedAt = clock.now();
    const active = await settledIn(testApp, pending.id);
    expect(active.status).toBe('ACTIVE');
    expect(active.startDate).toBe(activatedAt.toISOString());
    expect(active.endDate).toBe(addCalendarMonths(activatedAt, 1).toISOString());
    expect(active.endDate).not.toBe(addCalendarMonths(boughtAt, 1).toISOString());
    await provisioningProcessorCaughtUp();
    const jobs = await until(
      () => jobsOf(pending.id),
      (all) => all.length === 2 && all.every((job) => job.status === 'DONE'),
      'the second job',
    );
    expect(jobs).toEqual([
      {
        operation: 'CREATE_ACCOUNT',
        status: 'DONE',
        attempts: 2,
        expiresAt: addCalendarMonths(boughtAt, 1).toISOString(),
      },
      { operation: 'EXTEND_ACCOUNT', status: 'DONE', attempts: 1, expiresAt: active.endDate },
    ]);
    expect((await accountAtService(active.login)).body).toMatchObject({ status: 'ACTIVE', expiresAt: active.endDate });
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
