import type { CryptoDepositResponse, Payment, Subscription } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { eventually } from '../../../../test-support/eventually';
import { sandboxAct, sandboxInvoiceId } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  balanceMinorOf,
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  overdraw,
  read,
} from '../../subscriptions.fixtures';

/**
 * Deposit-and-renew (docs/adr/0030-deposit-and-buy.md): a crypto deposit of what renewing costs now, refused at once
 * when a renewal now would be, and renewing by the renewal's own rules once the money arrives.
 */
describe('deposit and renew a subscription by crypto', () => {
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    // Subscriptions start when a spec activates them, not when the simulated streaming service answers.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const depositAndRenew = (customer: ActiveUser, body: object) =>
    testApp.http
      .post('/api/payments/crypto/deposit-and-renew-subscription')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send(body);
  const opened = async (customer: ActiveUser, subscriptionId: string) => {
    const response = await depositAndRenew(customer, { subscriptionId, method: 'CRYPTO_LTC' });
    expect(response.status).toBe(201);
    const answer = response.body as CryptoDepositResponse;
    return { ...answer, invoiceId: sandboxInvoiceId(answer.invoiceUrl) };
  };
  const pay = (invoiceId: string) => sandboxAct(testApp, invoiceId, 'pay');
  const paymentOf = async (paymentId: number, token = admin): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };
  const decided = (paymentId: number): Promise<Payment> =>
    eventually(
      () => paymentOf(paymentId),
      (payment) => payment.purchase?.status !== 'WAITING',
      `the renewal of deposit ${paymentId} is decided`,
    );

  /** A customer whose subscription to a 15-dollar monthly package runs, with nothing left on the balance. */
  const running = async (): Promise<{ customer: ActiveUser; subscription: Subscription }> => {
    const plan = await createPlan(testApp, { price: 15, durationInMonths: 1 });
    const customer = await customerWithBalance(testApp, 15);
    const subscription = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    return { customer, subscription };
  };

  it('renews once the deposit settles: one more period, paid from what arrived, and the renewed mail', async () => {
    const { customer, subscription } = await running();
    const deposit = await opened(customer, subscription.id);
    expect(await paymentOf(deposit.paymentId, customer.accessToken)).toMatchObject({
      status: 'PENDING',
      amount: 15,
      purchase: {
        kind: 'RENEW',
        paymentPlanId: subscription.paymentPlan?.planId,
        planName: subscription.paymentPlan?.planName,
        subscriptionId: subscription.id,
        status: 'WAITING',
        errorCode: null,
      },
    });

    await pay(deposit.invoiceId);
    expect((await decided(deposit.paymentId)).purchase).toMatchObject({
      status: 'DONE',
      subscriptionId: subscription.id,
    });
    // One calendar month more from the end (at least 28 days), never from the payment.
    const renewed = await read(testApp, subscription.id);
    const addedMs = new Date(renewed.endDate as string).getTime() - new Date(subscription.endDate as string).getTime();
    expect(addedMs).toBeGreaterThanOrEqual(28 * 24 * 60 * 60 * 1000);
    expect(addedMs).toBeLessThanOrEqual(31 * 24 * 60 * 60 * 1000);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(0);
    await testApp.mailbox.waitFor(customer.email, (mail) => /חודשה$/.test(mail.subject));

    // Paid a full period ahead now: a second deposit is refused before anything is asked of the cashier.
    const again = await depositAndRenew(customer, { subscriptionId: subscription.id, method: 'CRYPTO_LTC' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('error.subscription.already.renewed');
  });

  it("renewed meanwhile from the balance: the deposit fails with the renewal's own code and the money stays", async () => {
    const { customer, subscription } = await running();
    const deposit = await opened(customer, subscription.id);
    const topUp = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: customer.userUuid, amount: 15, action: 'DEPOSIT', comment: 'wire' });
    expect(topUp.status).toBe(201);
    const renewedByHand = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId: subscription.id });
    expect(renewedByHand.status).toBe(200);

    await pay(deposit.invoiceId);
    expect((await decided(deposit.paymentId)).purchase).toMatchObject({
      kind: 'RENEW',
      status: 'FAILED',
      errorCode: 'error.subscription.already.renewed',
      subscriptionId: subscription.id,
    });
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1_500);
    const mail = await testApp.mailbox.waitFor(customer.email, (received) => /^לא הצלחנו לחדש/.test(received.subject));
    expect(mail.text).toContain(`http://kupa.test/payments/${deposit.paymentId}`);
  });

  it("refuses another's subscription, a PENDING one and a trial, and staff", async () => {
    const { subscription } = await running();
    const stranger = await createActiveUser(testApp);
    const foreign = await depositAndRenew(stranger, { subscriptionId: subscription.id, method: 'CRYPTO_LTC' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('error.subscription.not.found');

    const plan = await createPlan(testApp, { price: 15 });
    const buyer = await customerWithBalance(testApp, 15);
    const pending = await bought(testApp, buyer, plan.id);
    const notYet = await depositAndRenew(buyer, { subscriptionId: pending.id, method: 'CRYPTO_LTC' });
    expect(notYet.status).toBe(409);
    expect(notYet.body.error).toBe('error.subscription.not.renewable');

    const trialist = await createActiveUser(testApp);
    const trial = await testApp.http
      .post(`/api/subscriptions/users/${trialist.userUuid}/trial`)
      .set('Authorization', `Bearer ${trialist.accessToken}`)
      .send({ login: `trial.${trialist.userUuid.slice(0, 8)}`, password: 'pass-1234' });
    expect(trial.status).toBe(201);
    const activeTrial = await activate(testApp, (trial.body as Subscription).id);
    const trialRenewal = await depositAndRenew(trialist, { subscriptionId: activeTrial.id, method: 'CRYPTO_LTC' });
    expect(trialRenewal.status).toBe(409);
    expect(trialRenewal.body.error).toBe('error.subscription.not.renewable');

    const staff = await testApp.http
      .post('/api/payments/crypto/deposit-and-renew-subscription')
      .set('Authorization', `Bearer ${admin}`)
      .send({ subscriptionId: subscription.id, method: 'CRYPTO_LTC' });
    expect(staff.status).toBe(403);
    expect((await depositAndRenew(stranger, { subscriptionId: 'not-a-uuid', method: 'CRYPTO_LTC' })).status).toBe(400);
  });

  it('with a balance of −$10, renewing a $15 package asks $25, and once paid it renews and the balance is 0', async () => {
    const { customer, subscription } = await running();
    await overdraw(testApp, customer.userUuid, 10);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(-1000);
    const deposit = await opened(customer, subscription.id);
    expect(await paymentOf(deposit.paymentId, customer.accessToken)).toMatchObject({
      amount: 25,
      cashier: { amountAsked: 25 },
      purchase: { kind: 'RENEW', status: 'WAITING' },
    });

    expect((await pay(deposit.invoiceId)).body.status).toBe('finished');
    expect(await decided(deposit.paymentId)).toMatchObject({ status: 'SUCCESS', purchase: { status: 'DONE' } });
    expect((await read(testApp, subscription.id)).endDate).not.toBe(subscription.endDate);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(0);
  });

  it('asks the price less the referral discount plus the debt, and refuses an amount shown that is not that', async () => {
    const plan = await createPlan(testApp, { price: 20, durationInMonths: 1 });
    const customer = await customerWithBalance(testApp, 20);
    const subscription = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    // One referred client with an ACTIVE subscription: a 5 % discount, so the renewal costs $19.
    const referred = await customerWithBalance(testApp, 20, { referralToken: customer.user.profileId });
    await activate(testApp, (await bought(testApp, referred, plan.id)).id);
    await overdraw(testApp, customer.userUuid, 3);
    const renewing = (amount: number) =>
      depositAndRenew(customer, { subscriptionId: subscription.id, method: 'CRYPTO_LTC', amount });

    // The list price, the discounted price without the debt, and the list price with it: each refused, nothing opened.
    for (const shown of [20, 19, 23]) {
      const refused = await renewing(shown);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'error.renewal.amount.changed', details: { amount: 22 } });
    }
    const opened = await renewing(22);
    expect(opened.status).toBe(201);
    const { paymentId } = opened.body as CryptoDepositResponse;
    expect(await paymentOf(paymentId, customer.accessToken)).toMatchObject({
      amount: 22,
      cashier: { amountAsked: 22 },
      purchase: { kind: 'RENEW', status: 'WAITING', subscriptionId: subscription.id },
    });
    const deposits = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({});
    expect(deposits.status).toBe(200);
    expect((deposits.body.content as Payment[]).filter((payment) => payment.purchase?.kind === 'RENEW')).toHaveLength(
      1,
    );
  });

  it('keeps every read model equal to the replay and passes `kupa ledger verify`', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
