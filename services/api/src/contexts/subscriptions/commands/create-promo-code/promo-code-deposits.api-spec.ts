import type { CardCheckoutResponse, CryptoDepositResponse, Payment, Plan, PromoCodeView } from '@kupa/proto';
import { FakeStripe } from '../../../../test-support/fake-stripe';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { sandboxAct, sandboxInvoiceId } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  balanceMinorOf,
  bought,
  CARD_CHECKOUT,
  countRows,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  read,
  uniqueLogin,
} from '../../subscriptions.fixtures';

/**
 * Promo codes on the paths paid later (docs/adr/0088-promo-codes.md, "Card checkout and crypto deposits"): the card
 * checkout and the crypto deposit-and-buy / deposit-and-renew ask the price with the code, hold the code's use until
 * the money arrives, turn the hold into the use with the payment, and give it back when the purchase fails or the
 * checkout closes unpaid.
 */
describe('promo codes on card checkouts and crypto deposits', () => {
  let testApp: TestApp;
  let stripe: FakeStripe;
  let admin: string;
  let plan: Plan;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      env: {
        ...stripe.env(),
        PUBLIC_URL: 'https://kupa.example',
        CASHIER_DEPOSIT_MIN: '1',
        CASHIER_DEPOSIT_MAX: '500',
      },
      stoppedLoops: ['provisioning-jobs'],
    });
    admin = await adminToken(testApp);
    plan = await createPlan(testApp, { price: 10, name: 'Promo Gold' });
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  let sequence = 0;
  const uniqueCode = (prefix: string) => `${prefix}${Date.now().toString(36)}${sequence++}`.toUpperCase();
  const createCode = async (body: object) => {
    const response = await testApp.http.post('/api/promo-codes').set('Authorization', `Bearer ${admin}`).send(body);
    expect(response.status).toBe(201);
  };
  const listed = async (code: string): Promise<PromoCodeView | undefined> => {
    const response = await testApp.http.get('/api/promo-codes').set('Authorization', `Bearer ${admin}`);
    return (response.body as PromoCodeView[]).find((row) => row.code === code);
  };
  const holdsOf = (code: string): Promise<Array<{ status: string; price_minor: string }>> =>
    testApp.dataSource.query(
      `SELECT status, price_minor::text FROM promo_code_reservations WHERE code = $1 ORDER BY deposit_payment_id`,
      [code],
    );
  const liveHolds = (code: string, token = admin) =>
    testApp.http.get(`/api/promo-codes/${code}/holds`).set('Authorization', `Bearer ${token}`);
  const paymentOf = async (paymentId: number): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };
  const decided = (paymentId: number): Promise<Payment> =>
    eventually(
      () => paymentOf(paymentId),
      (payment) => payment.purchase?.status !== 'WAITING',
      `the purchase of deposit ${paymentId} is decided`,
    );
  const depositAndBuy = (customer: ActiveUser, body: object) =>
    testApp.http
      .post(`/api/payments/crypto/deposit-and-buy-subscription/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ method: 'CRYPTO_USDT_TRC20', login: uniqueLogin(), password: 'Stream-pass-1', ...body });
  const cryptoOpened = async (customer: ActiveUser, promoCode: string) => {
    const response = await depositAndBuy(customer, { promoCode });
    expect(response.status).toBe(201);
    const answer = response.body as CryptoDepositResponse;
    return { ...answer, invoiceId: sandboxInvoiceId(answer.invoiceUrl) };
  };
  const cardCheckout = (customer: ActiveUser, promoCode: string) =>
    testApp.http
      .post(CARD_CHECKOUT(plan.id))
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: uniqueLogin('card'), password: 'secret-pass', promoCode });
  const deliver = (event: { payload: string; signature: string | null }) =>
    testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature as string)
      .send(event.payload);

  it('crypto: the deposit asks the price with the code, holds the use, and the purchase pays that price', async () => {
    const code = uniqueCode('CRYPTO');
    await createCode({ code, discountKind: 'PERCENT', percent: 20, appliesTo: ['PURCHASE'], maxUses: 5 });
    const customer = await createActiveUser(testApp);
    const deposit = await cryptoOpened(customer, code.toLowerCase());
    const waiting = await paymentOf(deposit.paymentId);
    expect(waiting).toMatchObject({ amount: 8, cashier: { amountAsked: 8 }, purchase: { status: 'WAITING' } });
    // Held, not used yet: the list counts uses only.
    expect(await holdsOf(code)).toEqual([{ status: 'HELD', price_minor: '800' }]);
    expect(await listed(code)).toMatchObject({ uses: 0 });
    // The console's list of live holds, for admins and managers, by the code in any case.
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const live = await liveHolds(code.toLowerCase(), manager.accessToken);
    expect(live.status).toBe(200);
    expect(live.body).toEqual([
      {
        code,
        userUuid: customer.userUuid,
        userEmail: customer.email,
        depositPaymentId: deposit.paymentId,
        subscriptionId: expect.any(String),
        price: 8,
        discount: 2,
        heldSince: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    expect(Date.parse(live.body[0].expiresAt)).toBeGreaterThan(Date.parse(live.body[0].heldSince));
    expect((await liveHolds('NO-SUCH-CODE')).status).toBe(404);
    expect((await liveHolds('x')).status).toBe(400);
    expect((await liveHolds(code, customer.accessToken)).status).toBe(403);

    await sandboxAct(testApp, deposit.invoiceId, 'pay');
    const done = await decided(deposit.paymentId);
    expect(done.purchase?.status).toBe('DONE');
    const subscription = await read(testApp, done.purchase?.subscriptionId as string);
    expect(subscription.price).toBe(8);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(0);
    expect(await holdsOf(code)).toEqual([{ status: 'REDEEMED', price_minor: '800' }]);
    expect((await liveHolds(code)).body).toEqual([]);
    expect(await listed(code)).toMatchObject({ uses: 1, revenue: 8, discountGiven: 2 });
    const [use]: Array<{ discount_minor: string; price_minor: string }> = await testApp.dataSource.query(
      `SELECT discount_minor::text, price_minor::text FROM promo_code_uses WHERE code = $1`,
      [code],
    );
    expect(use).toEqual({ discount_minor: '200', price_minor: '800' });
  });

  it('crypto: 20 clients opening deposits at once on a code with 10 uses left hold exactly 10', async () => {
    const code = uniqueCode('RACEDEP');
    await createCode({ code, discountKind: 'AMOUNT', amount: 1, appliesTo: ['PURCHASE'], maxUses: 11 });
    // One use already taken from the balance, so 10 are left.
    const early = await customerWithBalance(testApp, 10);
    const first = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${early.accessToken}`)
      .send({ login: uniqueLogin(), password: 'secret pass 1', promoCode: code });
    expect(first.status).toBe(201);
    const customers: ActiveUser[] = [];
    for (let i = 0; i < 20; i++) customers.push(await createActiveUser(testApp));
    const answers = await Promise.all(customers.map((customer) => depositAndBuy(customer, { promoCode: code })));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    expect(
      answers.filter((answer) => answer.status !== 201).map((answer) => [answer.status, answer.body.error]),
    ).toEqual(Array.from({ length: 10 }, () => [409, 'error.promo.code.used.up']));
    const holds = await holdsOf(code);
    expect(holds).toHaveLength(10);
    expect(holds.every((hold) => hold.status === 'HELD' && hold.price_minor === '900')).toBe(true);
    // Only the winners' deposits exist, each asking the discounted price.
    const asked: Array<{ amount_minor: string }> = await testApp.dataSource.query(
      `SELECT amount_minor::text FROM payments WHERE type = 'DEPOSIT' AND user_uuid = ANY($1::uuid[])`,
      [customers.map((customer) => customer.userUuid)],
    );
    expect(asked.map((row) => row.amount_minor)).toEqual(Array.from({ length: 10 }, () => '900'));
    // A quote now says what the next purchase would meet.
    const later = await createActiveUser(testApp);
    const refused = await depositAndBuy(later, { promoCode: code });
    expect([refused.status, refused.body.error]).toEqual([409, 'error.promo.code.used.up']);
    await expectReadModelsToEqualReplay(testApp);
  }, 180_000);

  it('crypto: a short payment fails the purchase, gives the held use back, and keeps the money on the balance', async () => {
    const code = uniqueCode('SHORT');
    await createCode({ code, discountKind: 'PERCENT', percent: 50, appliesTo: ['PURCHASE'], maxUses: 1 });
    const customer = await createActiveUser(testApp);
    const deposit = await cryptoOpened(customer, code);
    // The last use is held: nobody else gets it meanwhile.
    const other = await createActiveUser(testApp);
    expect((await depositAndBuy(other, { promoCode: code })).body.error).toBe('error.promo.code.used.up');

    await sandboxAct(testApp, deposit.invoiceId, 'partial');
    const failed = await decided(deposit.paymentId);
    expect(failed.purchase).toMatchObject({ status: 'FAILED', errorCode: 'error.insufficient.balance' });
    expect(await holdsOf(code)).toEqual([{ status: 'RELEASED', price_minor: '500' }]);
    expect(await listed(code)).toMatchObject({ uses: 0 });
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBeGreaterThan(0);
    // The use is free again.
    expect((await depositAndBuy(other, { promoCode: code })).status).toBe(201);
  });

  it('crypto: renews with a code for renewals, at the price with the code', async () => {
    const code = uniqueCode('RENEWDEP');
    await createCode({ code, discountKind: 'AMOUNT', amount: 3, appliesTo: ['RENEWAL'] });
    const owner = await customerWithBalance(testApp, 10);
    const held = await bought(testApp, owner, plan.id);
    await activate(testApp, held.id).catch(() => undefined);
    const refused = await depositAndBuy(owner, { promoCode: code });
    expect([refused.status, refused.body.error]).toEqual([409, 'error.promo.code.not.for.payment']);
    const opened = await testApp.http
      .post('/api/payments/crypto/deposit-and-renew-subscription')
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .send({ subscriptionId: held.id, method: 'CRYPTO_USDT_TRC20', amount: 7, promoCode: code });
    expect(opened.status).toBe(201);
    const deposit = opened.body as CryptoDepositResponse;
    await sandboxAct(testApp, sandboxInvoiceId(deposit.invoiceUrl), 'pay');
    expect((await decided(deposit.paymentId)).purchase?.status).toBe('DONE');
    expect(await listed(code)).toMatchObject({ uses: 1, revenue: 7, discountGiven: 3 });
    expect(await balanceMinorOf(testApp, owner.userUuid)).toBe(0);
  });

  it('card: the checkout charges the price with the code, and the paid checkout buys at it and counts the use', async () => {
    const code = uniqueCode('CARD');
    await createCode({ code, discountKind: 'AMOUNT', amount: 2.5, appliesTo: ['PURCHASE'], maxUses: 3 });
    const customer = await createActiveUser(testApp);
    const response = await cardCheckout(customer, code);
    expect(response.status).toBe(201);
    const opened = response.body as CardCheckoutResponse;
    const sessionId = opened.url.split('/').pop() as string;
    expect(stripe.session(sessionId).amount_total).toBe(750);
    expect(await holdsOf(code)).toEqual([{ status: 'HELD', price_minor: '750' }]);

    stripe.pay(sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', sessionId))).status).toBe(200);
    const payment = await paymentOf(opened.paymentId);
    expect(payment.purchase?.status).toBe('DONE');
    expect((await read(testApp, payment.purchase?.subscriptionId as string)).price).toBe(7.5);
    expect(await holdsOf(code)).toEqual([{ status: 'REDEEMED', price_minor: '750' }]);
    expect(await listed(code)).toMatchObject({ uses: 1, revenue: 7.5 });
  });

  it('card: a checkout that expires unpaid gives its held use back', async () => {
    const code = uniqueCode('CARDEXP');
    await createCode({ code, discountKind: 'PERCENT', percent: 10, appliesTo: ['PURCHASE'], maxUses: 1 });
    const customer = await createActiveUser(testApp);
    const opened = (await cardCheckout(customer, code)).body as CardCheckoutResponse;
    const sessionId = opened.url.split('/').pop() as string;
    const other = await createActiveUser(testApp);
    expect((await cardCheckout(other, code)).body.error).toBe('error.promo.code.used.up');

    stripe.expire(sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.expired', sessionId))).status).toBe(200);
    expect((await paymentOf(opened.paymentId)).status).toBe('TIMEOUT');
    expect(await holdsOf(code)).toEqual([{ status: 'RELEASED', price_minor: '900' }]);
    expect((await cardCheckout(other, code)).status).toBe(201);
  });

  it('keeps every read model equal to the replay and passes `kupa ledger verify`', async () => {
    expect(await countRows(testApp, 'SELECT count(*) FROM promo_code_reservations')).toBeGreaterThan(10);
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
