import type { CryptoDepositResponse, Page, Payment, Plan, Subscription } from '@kupa/proto';
import { CommandBus } from '@nestjs/cqrs';
import { systemContext } from '../../../../platform/auth';
import { CashierSettings, ipnSignature, IPN_SIGNATURE_HEADER } from '../../../../platform/cashier';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { eventually } from '../../../../test-support/eventually';
import { sandboxAct, sandboxInvoiceId } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { DEPOSIT_PURCHASES_PROCESSOR } from '../../processors/deposit-purchases/deposit-purchases.processor';
import { CompleteDepositPurchaseCommand } from '../complete-deposit-purchase/complete-deposit-purchase.command';
import {
  balanceMinorOf,
  countRows,
  createPlan,
  customerInDebt,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  uniqueLogin,
} from '../../subscriptions.fixtures';

/**
 * Deposit-and-buy end to end (docs/adr/0030-deposit-and-buy.md): the crypto deposit opens with the purchase it pays
 * for, the sandbox cashier pays it over real HTTP, and the `deposit-purchases` processor buys the package once, or
 * records why it could not while the money stays on the balance, and the owner is mailed.
 */
describe('deposit and buy a package by crypto', () => {
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { CASHIER_DEPOSIT_MIN: '5', CASHIER_DEPOSIT_MAX: '500' } });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const depositAndBuy = (customer: ActiveUser, planId: string, body: object) =>
    testApp.http
      .post(`/api/payments/crypto/deposit-and-buy-subscription/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send(body);
  const opened = async (customer: ActiveUser, planId: string, login = uniqueLogin(), password = 'Stream-pass-1') => {
    const response = await depositAndBuy(customer, planId, { method: 'CRYPTO_USDT_TRC20', login, password });
    expect(response.status).toBe(201);
    const answer = response.body as CryptoDepositResponse;
    return { ...answer, invoiceId: sandboxInvoiceId(answer.invoiceUrl), login, password };
  };
  const act = (invoiceId: string, action: string, body: object = {}) => sandboxAct(testApp, invoiceId, action, body);
  const paymentOf = async (paymentId: number, token = admin): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };
  /** The deposit once the processor decided its purchase. */
  const decided = (paymentId: number): Promise<Payment> =>
    eventually(
      () => paymentOf(paymentId),
      (payment) => payment.purchase?.status !== 'WAITING',
      `the purchase of deposit ${paymentId} is decided`,
    );

  const subscriptionsOf = async (customer: ActiveUser): Promise<Subscription[]> => {
    const response = await testApp.http
      .post('/api/subscriptions/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({});
    expect(response.status).toBe(200);
    return (response.body as Page<Subscription>).content;
  };
  const paymentsOf = async (customer: ActiveUser): Promise<Payment[]> => {
    const response = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ sorts: [{ id: 'paymentId', desc: false }] });
    expect(response.status).toBe(200);
    return (response.body as Page<Payment>).content;
  };
  const setPlanStatus = async (plan: Plan, status: 'ACTIVE' | 'INACTIVE') => {
    const response = await testApp.http
      .put(`/api/payment-plans/${plan.id}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status });
    expect(response.status).toBe(200);
  };

  /** The process manager has seen every event stored so far. */
  const purchasesCaughtUp = () =>
    eventually(
      async () => {
        const [row]: Array<{ behind: boolean }> = await testApp.dataSource.query(
          `SELECT (SELECT max(commit_position) FROM event_commits) > coalesce(
                    (SELECT commit_position FROM checkpoints WHERE name = $1), 0) AS behind`,
          [DEPOSIT_PURCHASES_PROCESSOR],
        );
        return row.behind;
      },
      (behind) => !behind,
      'the deposit-purchases processor caught up',
    );
  const mailTo = (customer: ActiveUser, subject: RegExp) =>
    testApp.mailbox.waitFor(customer.email, (mail) => subject.test(mail.subject));
  const secretsOf = (login: string) =>
    countRows(
      testApp,
      `SELECT count(*) FROM subscription_secrets s
        WHERE s.subscription_id IN (SELECT (data->>'subscriptionId')::uuid FROM events
                                     WHERE type = 'DepositPurchaseRequested' AND data->>'login' = $1)`,
      [login],
    );

  it('asks the price, records the purchase WAITING, and buys the package once the deposit settles', async () => {
    const plan = await createPlan(testApp, { price: 12.5 });
    const customer = await createActiveUser(testApp);
    const deposit = await opened(customer, plan.id);

    const waiting = await paymentOf(deposit.paymentId, customer.accessToken);
    expect(waiting).toMatchObject({
      type: 'DEPOSIT',
      aggregator: 'CASHIER',
      method: 'CRYPTO_USDT_TRC20',
      status: 'PENDING',
      amount: 12.5,
      cashier: { amountAsked: 12.5, amountReceived: 0 },
      purchase: {
        kind: 'BUY',
        paymentPlanId: plan.id,
        planName: plan.name,
        subscriptionId: null,
        status: 'WAITING',
        errorCode: null,
      },
    });
    // The password waits beside the events, never in them.
    expect(await secretsOf(deposit.login)).toBe(1);
    expect(await countRows(testApp, `SELECT count(*) FROM events WHERE data::text LIKE '%Stream-pass-1%'`)).toBe(0);

    const paid = await act(deposit.invoiceId, 'pay');
    expect(paid.body.status).toBe('finished');
    expect(paid.body.ipnStatuses.every((status: number) => status === 200)).toBe(true);
    const done = await decided(deposit.paymentId);
    expect(done).toMatchObject({ status: 'SUCCESS', purchase: { status: 'DONE', errorCode: null } });
    const [subscription] = await subscriptionsOf(customer);
    expect(done.purchase?.subscriptionId).toBe(subscription.id);
    expect(subscription).toMatchObject({
      paymentPlan: { planId: plan.id, planName: plan.name },
      login: deposit.login,
      price: 12.5,
      type: 'REGULAR',
    });
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(0);
    const payments = await paymentsOf(customer);
    expect(payments.map((payment) => [payment.type, payment.amount, payment.status])).toEqual([
      ['DEPOSIT', 12.5, 'SUCCESS'],
      ['SUBSCRIPTION_PAYMENT', 12.5, 'SUCCESS'],
    ]);
    // The search answers carry the purchase too; other payments none.
    expect(payments[0].purchase).toEqual(done.purchase);
    expect(payments[1].purchase).toBeNull();
    // The purchase is the subscriptions' (ADR 0068): its events are on its own stream, none on the deposit's.
    const purchaseEvents: Array<{ stream_id: string; type: string }> = await testApp.dataSource.query(
      `SELECT stream_id, type FROM events WHERE type LIKE 'DepositPurchase%' AND (data->>'paymentId')::bigint = $1
        ORDER BY global_position`,
      [deposit.paymentId],
    );
    expect(purchaseEvents).toEqual([
      { stream_id: `purchase-${deposit.paymentId}`, type: 'DepositPurchaseRequested' },
      { stream_id: `purchase-${deposit.paymentId}`, type: 'DepositPurchaseCompleted' },
    ]);
    // The streaming service gets the account with the password the client chose, then the password is forgotten.
    await mailTo(customer, /מוכנה$/);
    await eventually(
      () => secretsOf(deposit.login),
      (count) => count === 0,
      'the applied password is forgotten',
    );
  });

  it('the same notification five times, in parallel and out of order, with the deposit in two parts: one purchase', async () => {
    const plan = await createPlan(testApp, { price: 20 });
    // Enough on the balance that the first part already pays for the package.
    const customer = await customerWithBalance(testApp, 15);
    const deposit = await opened(customer, plan.id);
    const partial = await act(deposit.invoiceId, 'partial');
    expect(partial.body).toMatchObject({ status: 'partially_paid', ipnStatuses: [200] });
    const settings = testApp.app.get(CashierSettings);
    const providerPayment = async () =>
      (await (
        await fetch(`${settings.apiBase()}/v1/payment/${partial.body.paymentId as string}`, {
          headers: { 'x-api-key': settings.apiKey },
        })
      ).json()) as Record<string, unknown>;
    const partialIpn = await providerPayment();
    const done = await decided(deposit.paymentId);
    expect(done.purchase?.status).toBe('DONE');

    expect((await act(deposit.invoiceId, 'pay')).body.status).toBe('finished');
    const finishedIpn = await providerPayment();
    const post = (body: Record<string, unknown>) =>
      testApp.http
        .post('/api/payments/crypto/ipn')
        .set(IPN_SIGNATURE_HEADER, ipnSignature(body, settings.ipnSecret))
        .send(body);
    const repeats = await Promise.all(
      Array.from({ length: 10 }, (_, index) => post(index % 2 === 0 ? finishedIpn : partialIpn)),
    );
    expect(repeats.every((response) => response.status === 200 && response.body.credited === 0)).toBe(true);
    // The processor may be asked again for the same deposit (a batch handled twice): it does nothing.
    const commands = testApp.app.get(CommandBus);
    const again = await Promise.all(
      Array.from({ length: 5 }, () =>
        commands.execute(new CompleteDepositPurchaseCommand(deposit.paymentId, systemContext())),
      ),
    );
    expect(again).toEqual([null, null, null, null, null]);
    await purchasesCaughtUp();

    expect(await subscriptionsOf(customer)).toHaveLength(1);
    expect(
      await countRows(
        testApp,
        `SELECT count(*) FROM events WHERE type = 'DepositPurchaseCompleted' AND data->>'paymentId' = $1`,
        [String(deposit.paymentId)],
      ),
    ).toBe(1);
    const payments = await paymentsOf(customer);
    expect(payments.filter((payment) => payment.type === 'SUBSCRIPTION_PAYMENT')).toHaveLength(1);
    // 15 on the balance + 20 arrived in two parts − 20 for the package.
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1_500);
    expect(await paymentOf(deposit.paymentId)).toMatchObject({
      amount: 20,
      cashier: { providerStatus: 'finished', amountReceived: 20 },
      purchase: { status: 'DONE' },
    });
  });

  it("a package that went inactive meanwhile: the money stays, FAILED with the code, and a mail in the owner's language", async () => {
    const plan = await createPlan(testApp, { price: 10 });
    const customer = await createActiveUser(testApp, { language: 'en' });
    const deposit = await opened(customer, plan.id);
    await setPlanStatus(plan, 'INACTIVE');

    await act(deposit.invoiceId, 'pay');
    const failed = await decided(deposit.paymentId);
    expect(failed).toMatchObject({
      status: 'SUCCESS',
      amount: 10,
      purchase: { kind: 'BUY', status: 'FAILED', errorCode: 'error.plan.no.longer.available', subscriptionId: null },
    });
    expect(await subscriptionsOf(customer)).toEqual([]);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1_000);
    // The password of a purchase that will not happen is not kept.
    expect(await secretsOf(deposit.login)).toBe(0);
    const mail = await mailTo(customer, /^We could not buy your/);
    expect(mail.subject).toContain(plan.name);
    expect(mail.text).toContain('$10.00');
    expect(mail.text).toContain('This package is no longer available');
    expect(mail.text).toContain(`http://kupa.test/payments/${deposit.paymentId}`);
    // The client reads it too, on their own payment.
    expect((await paymentOf(deposit.paymentId, customer.accessToken)).purchase?.errorCode).toBe(
      'error.plan.no.longer.available',
    );
  });

  it('a price that rose meanwhile fails the purchase; a partial payment that leaves the balance short too', async () => {
    const plan = await createPlan(testApp, { price: 10 });
    const customer = await createActiveUser(testApp);
    const dearer = await opened(customer, plan.id);
    const repriced = await testApp.http
      .put(`/api/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: plan.name,
        durationInMonths: plan.durationInMonths,
        price: 11,
        currency: 'USD',
        isRecurrent: plan.isRecurrent,
        description: plan.description,
        features: plan.features,
        status: 'ACTIVE',
      });
    expect(repriced.status).toBe(200);
    await act(dearer.invoiceId, 'pay');
    expect((await decided(dearer.paymentId)).purchase).toMatchObject({
      status: 'FAILED',
      errorCode: 'error.plan.no.longer.available',
    });
    await mailTo(customer, /^לא הצלחנו לרכוש/);

    const short = await opened(customer, plan.id);
    // 11 asked; half arrives, and with the 10 already there the balance is 15.50: enough. A new client has none.
    const poorer = await createActiveUser(testApp);
    const halfPaid = await opened(poorer, plan.id);
    await act(halfPaid.invoiceId, 'partial');
    expect((await decided(halfPaid.paymentId)).purchase).toMatchObject({
      status: 'FAILED',
      errorCode: 'error.insufficient.balance',
    });
    // The rest arriving later is credited; the purchase stays FAILED, and the balance holds everything paid.
    await act(halfPaid.invoiceId, 'pay');
    await purchasesCaughtUp();
    expect((await paymentOf(halfPaid.paymentId)).purchase?.status).toBe('FAILED');
    expect(await balanceMinorOf(testApp, poorer.userUuid)).toBe(1_100);
    expect(await subscriptionsOf(poorer)).toEqual([]);

    await act(short.invoiceId, 'partial');
    expect((await decided(short.paymentId)).purchase?.status).toBe('DONE');
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1_000 + 550 - 1_100);
  });

  it('a login taken meanwhile fails the purchase with that code', async () => {
    const plan = await createPlan(testApp, { price: 10 });
    const customer = await createActiveUser(testApp);
    const login = uniqueLogin();
    const deposit = await opened(customer, plan.id, login);
    const rival = await customerWithBalance(testApp, 10);
    const bought = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${rival.accessToken}`)
      .send({ login, password: 'pass-1234' });
    expect(bought.status).toBe(201);

    await act(deposit.invoiceId, 'pay');
    expect((await decided(deposit.paymentId)).purchase).toMatchObject({
      status: 'FAILED',
      errorCode: 'error.login.already.exists',
    });
    expect(await subscriptionsOf(customer)).toEqual([]);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1_000);
    expect(await secretsOf(login)).toBe(0);
  });

  it('refuses at once what cannot be bought now, and asks at least the minimum deposit', async () => {
    const customer = await createActiveUser(testApp);
    const body = { method: 'CRYPTO_BTC', login: uniqueLogin(), password: 'pass-1234' };
    const inactive = await createPlan(testApp, { price: 10, status: 'INACTIVE' });
    const refusedInactive = await depositAndBuy(customer, inactive.id, body);
    expect(refusedInactive.status).toBe(409);
    expect(refusedInactive.body.error).toBe('error.payment.plan.not.active');
    const missing = await depositAndBuy(customer, '7d1f5b9e-0000-4000-8000-000000000000', body);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('error.payment.plan.not.found');

    const plan = await createPlan(testApp, { price: 3 });
    const holder = await customerWithBalance(testApp, 3);
    const held = uniqueLogin();
    expect(
      (
        await testApp.http
          .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
          .set('Authorization', `Bearer ${holder.accessToken}`)
          .send({ login: held, password: 'pass-1234' })
      ).status,
    ).toBe(201);
    const taken = await depositAndBuy(customer, plan.id, { ...body, login: held });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('error.login.already.exists');

    const dear = await createPlan(testApp, { price: 600 });
    const tooMuch = await depositAndBuy(customer, dear.id, body);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ error: 'error.deposit.amount.out.of.range', details: { maxAmount: 500 } });
    expect((await depositAndBuy(customer, plan.id, { ...body, method: 'BALANCE' })).status).toBe(400);
    expect((await depositAndBuy(customer, plan.id, { ...body, login: 'x' })).status).toBe(400);
    expect(await countRows(testApp, `SELECT count(*) FROM payments WHERE user_uuid = $1`, [customer.userUuid])).toBe(0);

    // A 3-dollar package asks the 5-dollar minimum; the rest stays on the balance.
    const cheap = await opened(customer, plan.id);
    expect((await paymentOf(cheap.paymentId)).cashier?.amountAsked).toBe(5);
    await act(cheap.invoiceId, 'pay');
    expect((await decided(cheap.paymentId)).purchase?.status).toBe('DONE');
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(200);
  });

  it("an ambassador's deposit earns its bonus before the purchase is paid from the balance", async () => {
    const plan = await createPlan(testApp, { price: 100 });
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const deposit = await opened(ambassador, plan.id);
    await act(deposit.invoiceId, 'pay');
    const done = await decided(deposit.paymentId);
    expect(done.purchase?.status).toBe('DONE');
    expect(done.bonusPaymentId).toEqual(expect.any(Number));
    expect(await paymentOf(done.bonusPaymentId as number)).toMatchObject({
      type: 'AMBASSADOR_BONUS',
      amount: 5,
      bonusForPaymentId: deposit.paymentId,
    });
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(500);
  });

  it('with a balance of −$10, a $7 package asks $17, and once paid the package is bought and the balance is 0', async () => {
    const plan = await createPlan(testApp, { price: 7 });
    const customer = await customerInDebt(testApp, 10);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(-1000);
    const deposit = await opened(customer, plan.id);
    // The price alone would pay the debt and buy nothing.
    expect(await paymentOf(deposit.paymentId, customer.accessToken)).toMatchObject({
      amount: 17,
      cashier: { amountAsked: 17, amountReceived: 0 },
      purchase: { kind: 'BUY', status: 'WAITING' },
    });

    expect((await act(deposit.invoiceId, 'pay')).body.status).toBe('finished');
    expect(await decided(deposit.paymentId)).toMatchObject({ status: 'SUCCESS', purchase: { status: 'DONE' } });
    const [subscription] = await subscriptionsOf(customer);
    expect(subscription).toMatchObject({ paymentPlan: { planId: plan.id }, login: deposit.login, price: 7 });
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(0);
  });

  it('keeps every read model equal to the replay and passes `kupa ledger verify`', async () => {
    await purchasesCaughtUp();
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
