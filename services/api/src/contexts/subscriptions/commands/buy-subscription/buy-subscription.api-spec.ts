import type { Page, Payment, Plan, User } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { Metrics } from '../../../../platform/observability';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { SubscriptionSecrets } from '../../infrastructure/subscription-secrets';
import {
  activate,
  bought,
  buy,
  countRows,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  uniqueLogin,
} from '../../subscriptions.fixtures';

describe('POST /subscriptions/balance/payment-plans/{planId}', () => {
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

  const balanceOf = async (userUuid: string) => {
    const response = await testApp.http
      .get(`/api/users/${userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`);
    return (response.body as User).balance;
  };
  const paymentsOf = async (customer: ActiveUser): Promise<Payment[]> => {
    const response = await testApp.http
      .post(`/api/payments/search/${customer.userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ types: ['SUBSCRIPTION_PAYMENT'] });
    return response.body.content as Payment[];
  };
  const eventCount = () => countRows(testApp, 'SELECT count(*) FROM events');

  it('buys with the balance: a PENDING subscription, the SUBSCRIPTION_PAYMENT and the debit, in one append', async () => {
    const customer = await customerWithBalance(testApp, 25);
    const login = uniqueLogin();
    const response = await buy(testApp, customer.accessToken, plan.id, { login, password: 'top secret 1' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      userUuid: customer.userUuid,
      userEmail: customer.email,
      paymentPlan: { planId: plan.id, planName: plan.name },
      price: 10,
      currency: 'USD',
      status: 'PENDING',
      type: 'REGULAR',
      durationInMonth: 1,
      isRecurrent: true,
      cancelAtPeriodEnd: false,
      nextPaymentDate: null,
      login,
      startDate: null,
      endDate: null,
      createdBy: customer.email,
    });
    expect(JSON.stringify(response.body)).not.toContain('top secret');
    expect(await balanceOf(customer.userUuid)).toBe(15);
    const [payment] = await paymentsOf(customer);
    expect(payment).toMatchObject({
      type: 'SUBSCRIPTION_PAYMENT',
      status: 'SUCCESS',
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      amount: 10,
      discountPercent: 0,
    });
    // The read model answers what the purchase answered.
    const read = await testApp.http
      .get(`/api/subscriptions/${response.body.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(read.body).toEqual(response.body);
    // The password is in the side table under the purchase's version, sealed, and never in an event.
    const secrets: Array<{ version: number; password: string | null; password_sealed: string }> =
      await testApp.dataSource.query(
        'SELECT version, password, password_sealed FROM subscription_secrets WHERE subscription_id = $1',
        [response.body.id],
      );
    expect(secrets).toEqual([{ version: 1, password: null, password_sealed: expect.stringMatching(/^v1\./) }]);
    expect(secrets[0].password_sealed).not.toContain('top secret');
    expect(await testApp.app.get(SubscriptionSecrets).newest(response.body.id)).toEqual({
      version: 1,
      password: 'top secret 1',
    });
    expect(await countRows(testApp, `SELECT count(*) FROM events WHERE data::text LIKE '%top secret%'`)).toBe(0);
  });

  it('reads a password written before passwords were sealed, and keeps every row to one of the two forms', async () => {
    const secrets = testApp.app.get(SubscriptionSecrets);
    const legacy = randomUUID();
    await testApp.dataSource.query(
      `INSERT INTO subscription_secrets (subscription_id, version, password, created_at) VALUES ($1, 2, 'old plain', now())`,
      [legacy],
    );
    expect(await secrets.newest(legacy)).toEqual({ version: 2, password: 'old plain' });
    // A sealed password moved onto another subscription's row does not open there.
    const other = randomUUID();
    await testApp.dataSource.transaction((manager) =>
      secrets.write(manager, { subscriptionId: other, version: 3, password: 'not yours', at: new Date() }),
    );
    const [{ password_sealed: sealed }] = await testApp.dataSource.query(
      `SELECT password_sealed FROM subscription_secrets WHERE subscription_id = $1`,
      [other],
    );
    expect(await secrets.newest(other)).toEqual({ version: 3, password: 'not yours' });
    await testApp.dataSource.query(
      `INSERT INTO subscription_secrets (subscription_id, version, password_sealed, created_at) VALUES ($1, 3, $2, now())`,
      [legacy, sealed],
    );
    await expect(secrets.newest(legacy)).rejects.toThrow();
    await expect(
      testApp.dataSource.query(
        `INSERT INTO subscription_secrets (subscription_id, version, created_at) VALUES ($1, 4, now())`,
        [legacy],
      ),
    ).rejects.toThrow(/subscription_secrets_one_password/);
    await secrets.forgetAll(legacy);
    await secrets.forgetAll(other);
  });

  it('refuses a balance short of the price and writes nothing', async () => {
    const customer = await customerWithBalance(testApp, 9.99);
    const before = await eventCount();
    const response = await buy(testApp, customer.accessToken, plan.id, { login: uniqueLogin(), password: 'pass' });
    expect([response.status, response.body.error]).toEqual([409, 'error.insufficient.balance']);
    expect(await eventCount()).toBe(before);
    expect(
      await countRows(testApp, 'SELECT count(*) FROM subscriptions WHERE user_uuid = $1', [customer.userUuid]),
    ).toBe(0);
    expect(
      await countRows(
        testApp,
        'SELECT count(*) FROM subscription_secrets s WHERE NOT EXISTS (SELECT 1 FROM subscriptions WHERE id = s.subscription_id)',
      ),
    ).toBe(0);
    expect(await balanceOf(customer.userUuid)).toBe(9.99);
  });

  it('refuses an INACTIVE package (409), a missing or malformed one (404)', async () => {
    const customer = await customerWithBalance(testApp, 50);
    const inactive = await createPlan(testApp, { status: 'INACTIVE' });
    const body = { login: uniqueLogin(), password: 'pass' };
    const refused = await buy(testApp, customer.accessToken, inactive.id, body);
    expect([refused.status, refused.body.error]).toEqual([409, 'error.payment.plan.not.active']);
    for (const planId of [randomUUID(), 'not-a-uuid']) {
      const missing = await buy(testApp, customer.accessToken, planId, body);
      expect([missing.status, missing.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    }
    expect(await balanceOf(customer.userUuid)).toBe(50);
  });

  it('refuses a bad login or password with field errors', async () => {
    const customer = await customerWithBalance(testApp, 50);
    const response = await buy(testApp, customer.accessToken, plan.id, { login: 'Bad Login', password: 'pw' });
    expect(response.status).toBe(400);
    expect(response.body.details.fields).toEqual([
      { field: 'login', error: 'error.validation.subscription.login' },
      { field: 'password', error: 'error.validation.subscription.password' },
    ]);
    const extra = await buy(testApp, customer.accessToken, plan.id, { login: uniqueLogin(), password: 'pass', x: 1 });
    expect(extra.body.details.fields).toEqual([{ field: 'x', error: 'error.validation.unknown.field' }]);
  });

  it('refuses a login another live subscription holds (409), and nothing moves', async () => {
    const [first, second] = await Promise.all([customerWithBalance(testApp, 50), customerWithBalance(testApp, 50)]);
    const login = uniqueLogin();
    expect((await buy(testApp, first.accessToken, plan.id, { login, password: 'pass' })).status).toBe(201);
    const taken = await buy(testApp, second.accessToken, plan.id, { login, password: 'pass' });
    expect([taken.status, taken.body.error]).toEqual([409, 'error.login.already.exists']);
    expect(await balanceOf(second.userUuid)).toBe(50);
    expect(await paymentsOf(second)).toEqual([]);
  });

  it('eight buyers asking for one login at once: one subscription, the others refused by the reservation', async () => {
    const buyers = await Promise.all(Array.from({ length: 8 }, () => customerWithBalance(testApp, 50)));
    const login = uniqueLogin();
    const failedCommands = async () =>
      (await testApp.app.get(Metrics).commands.get()).values
        .filter((value) => value.labels.outcome === 'failed')
        .reduce((sum, value) => sum + value.value, 0);
    const failedBefore = await failedCommands();
    const answers = await Promise.all(
      buyers.map((buyer) => buy(testApp, buyer.accessToken, plan.id, { login, password: 'pass' })),
    );
    const statuses = answers.map((answer) => `${answer.status} ${answer.body.error ?? ''}`.trim()).sort();
    expect(statuses).toEqual(['201', ...Array.from({ length: 7 }, () => '409 error.login.already.exists')]);
    // The login's lock queued them and the decision refused the seven (ADR 0071): none reached the unique index,
    // which would have failed its command's transaction instead.
    expect(await failedCommands()).toBe(failedBefore);
    const charged = await Promise.all(buyers.map((buyer) => balanceOf(buyer.userUuid)));
    expect(charged.sort((a, b) => a - b)).toEqual([40, 50, 50, 50, 50, 50, 50, 50]);
  });

  it('refuses by the reservation a login held from before its stream existed, read in the locking statement', async () => {
    const [first, second] = await Promise.all([customerWithBalance(testApp, 50), customerWithBalance(testApp, 50)]);
    const login = uniqueLogin();
    expect((await buy(testApp, first.accessToken, plan.id, { login, password: 'pass' })).status).toBe(201);
    // As a subscription bought before the reservation streams (ADR 0071): the next purchase creates the stream.
    await testApp.dataSource.query('DELETE FROM streams WHERE stream_id = $1', [`login-${login.toLowerCase()}`]);
    const failed = async () =>
      (await testApp.app.get(Metrics).commands.get()).values
        .filter((value) => value.labels.outcome === 'failed')
        .reduce((sum, value) => sum + value.value, 0);
    const failedBefore = await failed();
    const taken = await buy(testApp, second.accessToken, plan.id, { login, password: 'pass' });
    expect([taken.status, taken.body.error]).toEqual([409, 'error.login.already.exists']);
    expect(await failed()).toBe(failedBefore);
    expect(await balanceOf(second.userUuid)).toBe(50);
  });

  it('answers a repeat with the same Idempotency-Key with the first subscription, charging once', async () => {
    const customer = await customerWithBalance(testApp, 50);
    const key = randomUUID();
    const body = { login: uniqueLogin(), password: 'pass' };
    const first = await buy(testApp, customer.accessToken, plan.id, body, key);
    const again = await buy(testApp, customer.accessToken, plan.id, body, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(customer.userUuid)).toBe(40);
    const reused = await buy(testApp, customer.accessToken, plan.id, { ...body, login: uniqueLogin() }, key);
    expect([reused.status, reused.body.error]).toEqual([409, 'error.idempotency.key.reused']);
  });

  it('eight purchases at once on a balance for one: exactly one subscription and one payment', async () => {
    const customer = await customerWithBalance(testApp, 10);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        buy(testApp, customer.accessToken, plan.id, { login: uniqueLogin(), password: 'pass' }),
      ),
    );
    const statuses = answers.map((answer) => `${answer.status} ${answer.body.error ?? ''}`.trim()).sort();
    expect(statuses).toEqual(['201', ...Array.from({ length: 7 }, () => '409 error.insufficient.balance')]);
    expect(
      await countRows(testApp, 'SELECT count(*) FROM subscriptions WHERE user_uuid = $1', [customer.userUuid]),
    ).toBe(1);
    expect(await paymentsOf(customer)).toHaveLength(1);
    expect(await balanceOf(customer.userUuid)).toBe(0);
  });

  it('applies the referral discount by referred users holding an ACTIVE subscription, on the payment too', async () => {
    const referrer = await customerWithBalance(testApp, 100);
    const referred = await Promise.all(
      Array.from({ length: 3 }, () => customerWithBalance(testApp, 10, { referralToken: referrer.user.profileId })),
    );
    const priceFor = async () => {
      const subscription = await bought(testApp, referrer, plan.id);
      const [payment] = (await paymentsOf(referrer)).filter((candidate) => candidate.amount === subscription.price);
      return { price: subscription.price, discountPercent: payment.discountPercent };
    };
    // A referred user with a PENDING subscription does not count yet.
    const pending = await bought(testApp, referred[0], plan.id);
    expect(await priceFor()).toEqual({ price: 10, discountPercent: 0 });
    await activate(testApp, pending.id);
    expect(await priceFor()).toEqual({ price: 9.5, discountPercent: 5 });
    for (const user of referred.slice(1)) await activate(testApp, (await bought(testApp, user, plan.id)).id);
    expect(await priceFor()).toEqual({ price: 9, discountPercent: 10 });
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${referrer.accessToken}`);
    expect(me.body.referrals).toMatchObject({ totalReferrals: 3, activeReferrals: 3, discountPercent: 10 });
  });

  it('reads the buyer with whom they referred, the package and the login with the locks: no statement of their own', async () => {
    const referrer = await customerWithBalance(testApp, 100);
    const referred = await customerWithBalance(testApp, 10, { referralToken: referrer.user.profileId });
    await activate(testApp, (await bought(testApp, referred, plan.id)).id);
    const statements: { sql: string; parameters: unknown[] }[] = [];
    const query = PostgresQueryRunner.prototype.query;
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query').mockImplementation(function (
      this: PostgresQueryRunner,
      sql: string,
      parameters?: unknown[],
      ...rest: unknown[]
    ) {
      statements.push({ sql, parameters: parameters ?? [] });
      return (query as (...args: unknown[]) => Promise<unknown>).call(this, sql, parameters, ...rest);
    } as typeof query);
    try {
      const subscription = await bought(testApp, referrer, plan.id);
      expect(subscription.price).toBe(9.5);
    } finally {
      spy.mockRestore();
    }
    const readsStream = (prefix: string) =>
      statements.filter(
        ({ sql, parameters }) =>
          /FROM events WHERE stream_id = \$1/.test(sql) && String(parameters[0]).startsWith(prefix),
      );
    expect(statements.filter(({ sql }) => /referrer_profile_id = \$1/.test(sql))).toEqual([]);
    expect(statements.filter(({ sql }) => /FROM users u WHERE u\.uuid = \$1/.test(sql))).toHaveLength(1);
    expect(readsStream('plan-')).toEqual([]);
    // A new login's holders are read in the locking statement too (ADR 0137).
    expect(statements.filter(({ sql }) => /FROM subscriptions WHERE lower\(login\) = lower\(\$1\)/.test(sql))).toEqual(
      [],
    );
  });

  it('keeps the package it names: no deletion, no new price or duration; other terms may change', async () => {
    const named = await createPlan(testApp, { price: 5 });
    const buyer = await customerWithBalance(testApp, 5);
    const admin = await adminToken(testApp);
    // Staff see whether subscriptions use a package before they try to delete it (ADR 0078); clients never do.
    const countOf = async (token: string) => {
      const read = await testApp.http.get(`/api/payment-plans/${named.id}`).set('Authorization', `Bearer ${token}`);
      const listed = await testApp.http
        .post('/api/payment-plans/search')
        .set('Authorization', `Bearer ${token}`)
        .send({ size: 100 });
      const row = (listed.body as Page<Plan>).content.find((plan) => plan.id === named.id);
      return [read.body.subscriptionCount, row?.subscriptionCount];
    };
    expect(await countOf(admin)).toEqual([0, 0]);
    await bought(testApp, buyer, named.id);
    expect(await countOf(admin)).toEqual([1, 1]);
    expect(await countOf((await createActiveUser(testApp, { role: 'MANAGER' })).accessToken)).toEqual([1, 1]);
    expect(await countOf(buyer.accessToken)).toEqual([undefined, undefined]);
    const deletion = await testApp.http
      .delete(`/api/payment-plans/${named.id}`)
      .set('Authorization', `Bearer ${admin}`);
    expect([deletion.status, deletion.body.error]).toEqual([409, 'error.payment.plan.cannot.be.deleted']);
    const { id: _id, createdAt: _c, updatedAt: _u, ...terms } = named;
    for (const change of [{ price: 6 }, { durationInMonths: 3 }]) {
      const update = await testApp.http
        .put(`/api/payment-plans/${named.id}`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ ...terms, ...change });
      expect([update.status, update.body.error]).toEqual([409, 'error.payment.plan.cannot.be.modified']);
    }
    const renamed = await testApp.http
      .put(`/api/payment-plans/${named.id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...terms, name: `${named.name} renamed`, status: 'INACTIVE' });
    expect(renamed.status).toBe(200);
  });

  it('is for clients and ambassadors', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const answer = await buy(testApp, manager.accessToken, plan.id, { login: uniqueLogin(), password: 'pass' });
    expect(answer.status).toBe(403);
    const ambassador = await customerWithBalance(testApp, 10, { role: 'AMBASSADOR' });
    expect((await bought(testApp, ambassador, plan.id)).status).toBe('PENDING');
  });

  it('passes kupa ledger verify: chains, the ledger and every read model equal to a replay', async () => {
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });
});
