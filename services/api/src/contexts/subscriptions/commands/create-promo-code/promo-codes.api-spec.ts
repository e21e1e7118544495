import type { Payment, Plan, PromoCodeQuote, PromoCodeView } from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { activityLogCaughtUp, startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  balanceMinorOf,
  buy,
  countRows,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  uniqueLogin,
} from '../../subscriptions.fixtures';

/** Promo codes end to end (docs/adr/0088-promo-codes.md): create, quote, buy and renew with a code, list, disable. */
describe('promo codes', () => {
  let testApp: TestApp;
  let plan: Plan;
  let otherPlan: Plan;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
    otherPlan = await createPlan(testApp, { price: 30, durationInMonths: 3 });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  let sequence = 0;
  const uniqueCode = (prefix: string) => `${prefix}${Date.now().toString(36)}${sequence++}`.toUpperCase();

  const createCode = (body: object, token = admin) =>
    testApp.http.post('/api/promo-codes').set('Authorization', `Bearer ${token}`).send(body);

  const quote = (token: string, query: Record<string, string>) =>
    testApp.http.get('/api/promo-codes/quote').query(query).set('Authorization', `Bearer ${token}`);

  const listed = async (code: string): Promise<PromoCodeView | undefined> => {
    const response = await testApp.http.get('/api/promo-codes').set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return (response.body as PromoCodeView[]).find((row) => row.code === code);
  };

  const subscriptionPaymentOf = async (userUuid: string): Promise<Payment> => {
    const response = await testApp.http
      .post(`/api/payments/search/${userUuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ types: ['SUBSCRIPTION_PAYMENT'] });
    return (response.body.content as Payment[])[0];
  };

  it('is created by an admin, in capitals, once whatever the case; a manager may only read the list', async () => {
    const code = uniqueCode('Spring');
    const created = await createCode({
      code: code.toLowerCase(),
      discountKind: 'PERCENT',
      percent: 20,
      appliesTo: ['PURCHASE'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code,
      discountKind: 'PERCENT',
      percent: 20,
      amount: null,
      appliesTo: ['PURCHASE'],
      planIds: null,
      status: 'ACTIVE',
      uses: 0,
      revenue: 0,
      newClientsOnly: false,
    });
    const again = await createCode({ code, discountKind: 'AMOUNT', amount: 1, appliesTo: ['RENEWAL'] });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('error.promo.code.already.exists');
    const manager = (await createActiveUser(testApp, { role: 'MANAGER' })).accessToken;
    expect(
      (
        await createCode(
          { code: uniqueCode('M'), discountKind: 'PERCENT', percent: 5, appliesTo: ['PURCHASE'] },
          manager,
        )
      ).status,
    ).toBe(403);
    const managerList = await testApp.http.get('/api/promo-codes').set('Authorization', `Bearer ${manager}`);
    expect(managerList.status).toBe(200);
    expect(managerList.headers['cache-control']).toBe('no-store');
  });

  it.each([
    [{ code: 'a b', discountKind: 'PERCENT', percent: 10, appliesTo: ['PURCHASE'] }, 'error.promo.code.invalid'],
    [{ code: 'OKCODE1', discountKind: 'PERCENT', appliesTo: ['PURCHASE'] }, 'error.promo.code.terms.invalid'],
    [
      { code: 'OKCODE2', discountKind: 'PERCENT', percent: 10, amount: 5, appliesTo: ['PURCHASE'] },
      'error.promo.code.terms.invalid',
    ],
    [
      {
        code: 'OKCODE3',
        discountKind: 'AMOUNT',
        amount: 5,
        appliesTo: ['PURCHASE'],
        validFrom: '2030-01-02T00:00:00Z',
        validUntil: '2030-01-01T00:00:00Z',
      },
      'error.promo.code.terms.invalid',
    ],
  ])('refuses bad terms with a 400 from the catalogue: %j', async (body, error) => {
    const response = await createCode(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(error);
  });

  it('quotes the price before confirming, and a purchase pays it, records the code and counts the use', async () => {
    const code = uniqueCode('TEN');
    await createCode({ code, discountKind: 'PERCENT', percent: 25, appliesTo: ['PURCHASE'], planIds: [plan.id] });
    const customer = await customerWithBalance(testApp, 20);
    const quoted = await quote(customer.accessToken, { code: code.toLowerCase(), planId: plan.id });
    expect(quoted.status).toBe(200);
    expect(quoted.body as PromoCodeQuote).toEqual({
      code,
      listPrice: 10,
      price: 7.5,
      applied: 'PROMO_CODE',
      discountPercent: 0,
      promoDiscount: 2.5,
      currency: 'USD',
    });
    // The quote spends nothing.
    expect((await listed(code))?.uses).toBe(0);
    const otherQuote = await quote(customer.accessToken, { code, planId: otherPlan.id });
    expect([otherQuote.status, otherQuote.body.error]).toEqual([409, 'error.promo.code.not.for.plan']);
    // What to price is a package or a subscription, never both nor neither; the field at fault is named.
    const neither = await quote(customer.accessToken, { code });
    expect([neither.status, neither.body.details?.fields]).toEqual([
      400,
      [{ field: 'planId', error: 'error.validation.required' }],
    ]);
    const both = await quote(customer.accessToken, { code, planId: plan.id, subscriptionId: plan.id });
    expect([both.status, both.body.details?.fields]).toEqual([
      400,
      [{ field: 'subscriptionId', error: 'error.validation.invalid.field' }],
    ]);
    const missingCode = await quote(customer.accessToken, { planId: plan.id });
    expect(missingCode.body.details?.fields).toEqual([{ field: 'code', error: 'error.validation.required' }]);

    const response = await buy(testApp, customer.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
      promoCode: ` ${code.toLowerCase()} `,
    });
    expect(response.status).toBe(201);
    expect(response.body.price).toBe(7.5);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1250);
    const payment = await subscriptionPaymentOf(customer.userUuid);
    expect(payment).toMatchObject({ amount: 7.5, discountPercent: 0 });
    const uses: Array<{ code: string; discount_minor: string; price_minor: string }> = await testApp.dataSource.query(
      'SELECT code, discount_minor, price_minor FROM promo_code_uses WHERE payment_id = $1',
      [payment.paymentId],
    );
    expect(uses).toEqual([{ code, discount_minor: '250', price_minor: '750' }]);
    expect(await listed(code)).toMatchObject({ uses: 1, revenue: 7.5, discountGiven: 2.5 });
    await activityLogCaughtUp(testApp);
    // The activity log tells the use under the code, naming the payment.
    const entries: Array<{ changes: unknown }> = await testApp.dataSource.query(
      `SELECT changes FROM audit_logs WHERE target_type = 'PROMO_CODE' AND target_id = $1 AND operation_type = 'UPDATED'`,
      [code],
    );
    expect(JSON.stringify(entries)).toContain(`#${payment.paymentId}`);
  });

  it('refuses an unknown, a disabled, an expired, a new-clients-only and a client’s used code with 4xx, charging nothing', async () => {
    const customer = await customerWithBalance(testApp, 50);
    const attempt = (promoCode: string) =>
      buy(testApp, customer.accessToken, plan.id, { login: uniqueLogin(), password: 'secret pass 1', promoCode });

    const unknown = await attempt('NOPE-NOT-A-CODE');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'error.promo.code.not.found']);
    const malformed = await attempt('no spaces allowed');
    expect([malformed.status, malformed.body.error]).toEqual([400, 'error.promo.code.invalid']);

    const disabled = uniqueCode('OFF');
    await createCode({ code: disabled, discountKind: 'AMOUNT', amount: 2, appliesTo: ['PURCHASE'] });
    const off = await testApp.http
      .post(`/api/promo-codes/${disabled.toLowerCase()}/disable`)
      .set('Authorization', `Bearer ${admin}`);
    expect([off.status, off.body.status]).toEqual([200, 'DISABLED']);
    const refusedDisabled = await attempt(disabled);
    expect([refusedDisabled.status, refusedDisabled.body.error]).toEqual([409, 'error.promo.code.disabled']);

    const expired = uniqueCode('OLD');
    await createCode({
      code: expired,
      discountKind: 'AMOUNT',
      amount: 2,
      appliesTo: ['PURCHASE'],
      validUntil: '2020-01-01T00:00:00Z',
    });
    const refusedExpired = await attempt(expired);
    expect([refusedExpired.status, refusedExpired.body.error]).toEqual([409, 'error.promo.code.expired']);

    const renewalOnly = uniqueCode('REN');
    await createCode({ code: renewalOnly, discountKind: 'AMOUNT', amount: 2, appliesTo: ['RENEWAL'] });
    const refusedUse = await attempt(renewalOnly);
    expect([refusedUse.status, refusedUse.body.error]).toEqual([409, 'error.promo.code.not.for.payment']);

    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(5000);

    // A client who bought before is not new.
    const newOnly = uniqueCode('NEW');
    await createCode({
      code: newOnly,
      discountKind: 'AMOUNT',
      amount: 2,
      appliesTo: ['PURCHASE'],
      newClientsOnly: true,
    });
    expect((await attempt('')).status).toBe(201);
    const refusedOld = await attempt(newOnly);
    expect([refusedOld.status, refusedOld.body.error]).toEqual([409, 'error.promo.code.new.clients.only']);
    const fresh = await customerWithBalance(testApp, 10);
    expect((await quote(fresh.accessToken, { code: newOnly, planId: plan.id })).body.price).toBe(8);

    // Uses per client: a client's second purchase with a once-per-client code is refused; another client's is not.
    const once = uniqueCode('ONCE');
    await createCode({ code: once, discountKind: 'AMOUNT', amount: 2, appliesTo: ['PURCHASE'], maxUsesPerClient: 1 });
    const buyOnce = (who: { accessToken: string }) =>
      buy(testApp, who.accessToken, plan.id, { login: uniqueLogin(), password: 'secret pass 1', promoCode: once });
    const regular = await customerWithBalance(testApp, 30);
    expect((await buyOnce(regular)).status).toBe(201);
    const again = await buyOnce(regular);
    expect([again.status, again.body.error]).toEqual([409, 'error.promo.code.already.used']);
    expect(await balanceMinorOf(testApp, regular.userUuid)).toBe(2200);
    expect((await buyOnce(fresh)).status).toBe(201);
    expect(await listed(once)).toMatchObject({ uses: 2 });
  });

  it('lets the larger discount win: a referral discount as large keeps the code unspent', async () => {
    const code = uniqueCode('SMALL');
    await createCode({ code, discountKind: 'AMOUNT', amount: 0.5, appliesTo: ['PURCHASE'] });
    const referrer = await customerWithBalance(testApp, 20);
    // One referred user with an ACTIVE subscription gives the referrer the first tier's discount.
    const referred = await customerWithBalance(testApp, 20, { referralToken: referrer.user.profileId });
    const referredBuy = await buy(testApp, referred.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
    });
    await activate(testApp, referredBuy.body.id);
    const quoted = await quote(referrer.accessToken, { code, planId: plan.id });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({ applied: 'REFERRAL', promoDiscount: 0 });
    expect(quoted.body.discountPercent).toBeGreaterThan(0);
    const response = await buy(testApp, referrer.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
      promoCode: code,
    });
    expect(response.status).toBe(201);
    expect(response.body.price).toBe(quoted.body.price);
    expect((await listed(code))?.uses).toBe(0);
  });

  it('renews with a code for renewals: the owner pays less and the use is counted', async () => {
    const code = uniqueCode('RENEW');
    await createCode({ code, discountKind: 'AMOUNT', amount: 3, appliesTo: ['RENEWAL'] });
    const customer = await customerWithBalance(testApp, 30);
    const bought = await buy(testApp, customer.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
    });
    await activate(testApp, bought.body.id);
    const quoted = await quote(customer.accessToken, { code, subscriptionId: bought.body.id });
    expect(quoted.body).toMatchObject({ price: 7, applied: 'PROMO_CODE' });
    const other = await createActiveUser(testApp);
    expect((await quote(other.accessToken, { code, subscriptionId: bought.body.id })).status).toBe(404);
    const renewed = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId: bought.body.id, promoCode: code });
    expect(renewed.status).toBe(200);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(3000 - 1000 - 700);
    expect(await listed(code)).toMatchObject({ uses: 1, revenue: 7, discountGiven: 3 });
  });

  it('counts uses atomically: 20 clients at once on a code with 10 uses left get exactly 10', async () => {
    const code = uniqueCode('RACE');
    await createCode({ code, discountKind: 'PERCENT', percent: 10, appliesTo: ['PURCHASE'], maxUses: 12 });
    // Two uses already taken, so 10 are left.
    for (let i = 0; i < 2; i++) {
      const early = await customerWithBalance(testApp, 10);
      const response = await buy(testApp, early.accessToken, plan.id, {
        login: uniqueLogin(),
        password: 'secret pass 1',
        promoCode: code,
      });
      expect(response.status).toBe(201);
    }
    // The clients are made one by one (sign-up mails under load are slow); only their purchases race.
    const customers = [];
    for (let i = 0; i < 20; i++) customers.push(await customerWithBalance(testApp, 10));
    const answers = await Promise.all(
      customers.map((customer) =>
        buy(testApp, customer.accessToken, plan.id, {
          login: uniqueLogin(),
          password: 'secret pass 1',
          promoCode: code,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(
      answers.filter((answer) => answer.status !== 201).map((answer) => [answer.status, answer.body.error]),
    ).toEqual(Array.from({ length: 10 }, () => [409, 'error.promo.code.used.up']));
    expect(await listed(code)).toMatchObject({ uses: 12, revenue: 12 * 9 });
    expect(await countRows(testApp, 'SELECT count(*) FROM promo_code_uses WHERE code = $1', [code])).toBe(12);
    // Only the winners paid.
    const charged = await Promise.all(customers.map((customer) => balanceMinorOf(testApp, customer.userUuid)));
    expect(charged.filter((balance) => balance === 100)).toHaveLength(10);
    expect(charged.filter((balance) => balance === 1000)).toHaveLength(10);
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
