import type { GeneratedVoucherBatch, Payment, Plan, VoucherRedemption } from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import {
  balanceMinorOf,
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  read,
  settled,
  uniqueLogin,
} from '../subscriptions.fixtures';

const DAY_MS = 24 * 60 * 60 * 1000;
const MISSES_PER_ACCOUNT = 3;

/*
 * Day vouchers (docs/adr/0089-prepaid-vouchers.md): a code adds its days to the client's subscription of a package,
 * or starts one when the client has none to extend.
 */
describe('day vouchers', () => {
  let testApp: TestApp;
  let admin: string;
  let plan: Plan;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_VOUCHER_MISSES_PER_ACCOUNT: `${MISSES_PER_ACCOUNT}/15m` } });
    admin = await adminToken(testApp);
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const generate = async (count: number, days: number, planId = plan.id) => {
    const response = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: 'Hanukkah gift', count, kind: 'DAYS', days, planId });
    return response;
  };
  const generated = async (count: number, days: number): Promise<GeneratedVoucherBatch> => {
    const response = await generate(count, days);
    expect(response.status).toBe(201);
    return response.body as GeneratedVoucherBatch;
  };
  const fund = (batchId: string, body: object) =>
    testApp.http.post(`/api/vouchers/batches/${batchId}/funding`).set('Authorization', `Bearer ${admin}`).send(body);
  const redeem = (token: string, code: string, credentials: { login: string; password: string } | object = {}) =>
    testApp.http
      .post('/api/vouchers/redeem')
      .set('Authorization', `Bearer ${token}`)
      .send({ code, ...credentials });
  const preview = (token: string, code: string) =>
    testApp.http.post('/api/vouchers/preview').set('Authorization', `Bearer ${token}`).send({ code });
  const revenueOfTransaction = async (batchId: string): Promise<number> => {
    const rows: Array<{ total: string | null }> = await testApp.dataSource.query(
      `SELECT sum(e.amount_minor)::text AS total FROM ledger_entries e
         JOIN events ev ON ev.global_position = e.global_position
        WHERE e.account = 'revenue:subscriptions' AND ev.stream_id = $1`,
      [`voucher-batch-${batchId}`],
    );
    return Number(rows[0].total ?? 0);
  };

  it('generates a DAYS batch of a package, worth no money, and lists its kind', async () => {
    const { batch } = await generated(2, 30);
    expect(batch).toMatchObject({ kind: 'DAYS', days: 30, planId: plan.id, planName: plan.name, amount: 0 });
    const list = await testApp.http.get('/api/vouchers/batches').set('Authorization', `Bearer ${admin}`);
    expect(list.body.items.find((item: { id: string }) => item.id === batch.id)).toMatchObject({ kind: 'DAYS' });
    expect((await generate(1, 367)).status).toBe(400);
    expect((await generate(1, 0)).status).toBe(400);
    expect((await generate(1, 30, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('sold: what was received is subscription revenue at the sale; given away: nothing is booked', async () => {
    const sold = await generated(2, 30);
    expect((await fund(sold.batch.id, { funding: 'SOLD', comment: 'centre paid' })).status).toBe(400);
    const funded = await fund(sold.batch.id, { funding: 'SOLD', comment: 'centre paid', amount: 40 });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ funding: 'SOLD', outstanding: 0 });
    expect(await revenueOfTransaction(sold.batch.id)).toBe(4000);

    const given = await generated(1, 7);
    expect((await fund(given.batch.id, { funding: 'GIVEN_AWAY', comment: 'launch', amount: 5 })).status).toBe(400);
    expect((await fund(given.batch.id, { funding: 'GIVEN_AWAY', comment: 'launch' })).status).toBe(200);
    const entries: Array<{ n: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN events ev ON ev.global_position = e.global_position
        WHERE ev.stream_id = $1`,
      [`voucher-batch-${given.batch.id}`],
    );
    expect(entries[0].n).toBe(0);
  });

  it('extends the client’s subscription of the package; of five simultaneous redemptions exactly one adds days', async () => {
    // Five clients, each with a subscription of the package (one client's parallel requests meet its own limiter).
    const customers = await Promise.all([1, 2, 3, 4, 5].map(() => customerWithBalance(testApp, 10)));
    const subscriptions = await Promise.all(
      customers.map(async (customer) => settled(testApp, (await bought(testApp, customer, plan.id)).id)),
    );
    const { batch, codes } = await generated(1, 30);
    expect((await fund(batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);

    const answers = await Promise.all(customers.map((customer) => redeem(customer.accessToken, codes[0])));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409))
      expect(refused.body.error).toBe('error.voucher.code.already.redeemed');
    const winner = answers.findIndex((answer) => answer.status === 201);
    const active = subscriptions[winner];
    const redemption = answers[winner].body as VoucherRedemption;
    const endDate = new Date(new Date(active.endDate as string).getTime() + 30 * DAY_MS).toISOString();
    expect(redemption).toMatchObject({
      kind: 'DAYS',
      days: 30,
      planName: plan.name,
      subscriptionId: active.id,
      endDate,
      amount: 0,
      paymentId: null,
    });
    expect((await read(testApp, active.id)).endDate).toBe(endDate);
    expect(await balanceMinorOf(testApp, customers[winner].userUuid)).toBe(0);
    const extended: Array<{ n: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'SubscriptionExtended' AND stream_id = ANY($1)`,
      [subscriptions.map((subscription) => `subscription-${subscription.id}`)],
    );
    expect(extended[0].n).toBe(1);
  });

  it('a client without a subscription of the package is asked for a login, and the code stays usable', async () => {
    const newcomer = await createActiveUser(testApp);
    const { batch, codes } = await generated(1, 30);
    const unfunded = await redeem(newcomer.accessToken, codes[0]);
    expect(unfunded.body.error).toBe('error.voucher.batch.not.funded');
    expect((await fund(batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);
    const refused = await redeem(newcomer.accessToken, codes[0]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('error.voucher.subscription.needed');
    expect(JSON.stringify(refused.body)).toContain(plan.name);

    const customer = await customerWithBalance(testApp, 10);
    await settled(testApp, (await bought(testApp, customer, plan.id)).id);
    expect((await redeem(customer.accessToken, codes[0])).status).toBe(201);
  });

  it('starts a subscription for a client without one: free, provisioned, the code’s days; five at once → one', async () => {
    const newcomers = await Promise.all([1, 2, 3, 4, 5].map(() => createActiveUser(testApp)));
    const { batch, codes } = await generated(1, 30);
    expect((await fund(batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);
    const halfCredentials = await redeem(newcomers[0].accessToken, codes[0], { login: uniqueLogin() });
    expect(halfCredentials.status).toBe(400);
    const badLogin = await redeem(newcomers[0].accessToken, codes[0], { login: 'a', password: 'pass-1234' });
    expect(badLogin.status).toBe(400);

    const answers = await Promise.all(
      newcomers.map((newcomer) =>
        redeem(newcomer.accessToken, codes[0], { login: uniqueLogin(), password: 'pass-1234' }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409))
      expect(refused.body.error).toBe('error.voucher.code.already.redeemed');
    const winner = answers.findIndex((answer) => answer.status === 201);
    const redemption = answers[winner].body as VoucherRedemption;
    expect(redemption).toMatchObject({
      kind: 'DAYS',
      days: 30,
      planName: plan.name,
      endDate: null,
      newSubscription: true,
      amount: 0,
      paymentId: null,
    });
    const started: Array<{ n: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'SubscriptionPurchased' AND data->'voucher'->>'batchId' = $1`,
      [batch.id],
    );
    expect(started[0].n).toBe(1);

    // The purchase path: PENDING, provisioned by the same job a bought one gets, then the code's days from then.
    const subscription = await settled(testApp, redemption.subscriptionId as string);
    expect(subscription).toMatchObject({
      status: 'ACTIVE',
      userUuid: newcomers[winner].userUuid,
      paymentPlan: { planId: plan.id, planName: plan.name },
      price: 0,
      startedByVoucher: { days: 30, label: 'Hanukkah gift' },
    });
    const start = new Date(subscription.startDate as string).getTime();
    expect(new Date(subscription.endDate as string).getTime()).toBe(start + 30 * DAY_MS);
    const jobs: Array<{ n: number }> = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM provisioning_jobs WHERE subscription_id = $1`,
      [subscription.id],
    );
    expect(jobs[0].n).toBeGreaterThan(0);
    expect(await balanceMinorOf(testApp, newcomers[winner].userUuid)).toBe(0);

    // The next code of the package, once it runs, extends it rather than starting another.
    const next = await generated(1, 7);
    expect((await fund(next.batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);
    const extended = await redeem(newcomers[winner].accessToken, next.codes[0], {
      login: uniqueLogin(),
      password: 'pass-1234',
    });
    expect(extended.body).toMatchObject({ newSubscription: false, subscriptionId: subscription.id });
  });

  it('previews what a code gives without spending it: money, days extending a subscription, or a new one', async () => {
    const customer = await customerWithBalance(testApp, 10);
    const active = await settled(testApp, (await bought(testApp, customer, plan.id)).id);
    const newcomer = await createActiveUser(testApp);
    const { batch, codes } = await generated(2, 30);
    const unfunded = await preview(customer.accessToken, codes[0]);
    expect(unfunded.status).toBe(409);
    expect(unfunded.body.error).toBe('error.voucher.batch.not.funded');
    expect((await fund(batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);

    const extending = await preview(customer.accessToken, codes[0]);
    expect(extending.status).toBe(200);
    expect(extending.headers['cache-control']).toBe('no-store');
    const endDate = new Date(new Date(active.endDate as string).getTime() + 30 * DAY_MS).toISOString();
    expect(extending.body).toEqual({
      kind: 'DAYS',
      amount: 0,
      days: 30,
      planName: plan.name,
      subscriptionId: active.id,
      endDate,
      newSubscription: false,
    });
    expect((await preview(newcomer.accessToken, codes[0])).body).toMatchObject({
      subscriptionId: null,
      endDate: null,
      newSubscription: true,
    });
    // Nothing was spent: the code still redeems, to the end the preview told; then it previews as used.
    expect((await redeem(customer.accessToken, codes[0])).body).toMatchObject({ endDate });
    expect((await preview(customer.accessToken, codes[0])).body.error).toBe('error.voucher.code.already.redeemed');

    const money = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: 'Shop', count: 1, amount: 20 });
    expect(money.status).toBe(201);
    await fund(money.body.batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' });
    expect((await preview(newcomer.accessToken, money.body.codes[0])).body).toEqual({
      kind: 'MONEY',
      amount: 20,
      days: null,
      planName: null,
      subscriptionId: null,
      endDate: null,
      newSubscription: false,
    });
    expect(await balanceMinorOf(testApp, newcomer.userUuid)).toBe(0);
  });

  it('wrong codes spend one guessing allowance, shared by redeeming and previewing', async () => {
    const guesser = await createActiveUser(testApp);
    for (let attempt = 0; attempt < MISSES_PER_ACCOUNT - 1; attempt += 1)
      expect((await preview(guesser.accessToken, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')).status).toBe(404);
    expect((await redeem(guesser.accessToken, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')).status).toBe(404);
    expect((await preview(guesser.accessToken, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')).status).toBe(429);
    expect((await redeem(guesser.accessToken, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')).status).toBe(429);
  });

  it('a renewal of a subscription a day voucher started names the package, as every renewal does', async () => {
    // Ten days: a renewal is refused while the end is a whole period (a month) away.
    const { batch, codes } = await generated(1, 10);
    expect((await fund(batch.id, { funding: 'GIVEN_AWAY', comment: 'gift' })).status).toBe(200);
    const customer = await customerWithBalance(testApp, 25);
    const started = await redeem(customer.accessToken, codes[0], { login: uniqueLogin(), password: 'pass-1234' });
    expect(started.status).toBe(201);
    const subscriptionId = (started.body as VoucherRedemption).subscriptionId as string;
    expect((await settled(testApp, subscriptionId)).status).toBe('ACTIVE');
    const renewed = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId });
    expect(renewed.status).toBe(200);

    const paidFor = { subscriptionId, planName: plan.name };
    const search = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ types: ['SUBSCRIPTION_PAYMENT'] });
    const [renewal] = search.body.content as Payment[];
    expect(renewal.paidFor).toEqual(paidFor);
    const detail = (token: string) =>
      testApp.http.get(`/api/payments/${renewal.paymentId}`).set('Authorization', `Bearer ${token}`);
    expect((await detail(customer.accessToken)).body.paidFor).toEqual(paidFor);
    expect((await detail(admin)).body.paidFor).toEqual(paidFor);
  });

  it('kupa ledger verify explains the day vouchers, and the read models equal a replay', async () => {
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });
});
