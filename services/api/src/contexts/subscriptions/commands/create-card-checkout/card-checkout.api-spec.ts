import type { CardCheckoutResponse, Payment, Plan } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { FakeStripe } from '../../../../test-support/fake-stripe';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  balanceMinorOf,
  CARD_CHECKOUT,
  bought,
  countRows,
  createPlan,
  customerInDebt,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  openCardCheckout,
  read,
  settled,
  uniqueLogin,
} from '../../subscriptions.fixtures';
import { CARD_JANITOR_SWEEP } from '../../processors/card-janitor/card-janitor.sweep';

describe('Card checkout through Stripe (the real SDK against a local fake Stripe API)', () => {
  let testApp: TestApp;
  let stripe: FakeStripe;
  let admin: string;
  let plan: Plan;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({ env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example' } });
    admin = await adminToken(testApp);
    plan = await createPlan(testApp, { price: 25, name: 'Card Gold' });
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  const checkout = (token: string | null, planId: string, body: object) => {
    const call = testApp.http.post(CARD_CHECKOUT(planId));
    return (token === null ? call : call.set('Authorization', `Bearer ${token}`)).send(body);
  };

  const openCheckout = async (customer: ActiveUser, planId = plan.id) => {
    const login = uniqueLogin('card');
    const response = await checkout(customer.accessToken, planId, { login, password: 'secret-pass' });
    expect(response.status).toBe(201);
    const answer = response.body as CardCheckoutResponse;
    const sessionId = answer.url.split('/').pop() as string;
    return { ...answer, sessionId, login };
  };

  const deliver = (event: { payload: string; signature: string | null }) => {
    let call = testApp.http.post('/api/stripe/webhook').set('Content-Type', 'application/json');
    if (event.signature !== null) call = call.set('Stripe-Signature', event.signature);
    return call.send(event.payload);
  };

  const paymentOf = async (paymentId: number, token = admin): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };

  const subscriptionsOf = (userUuid: string) =>
    countRows(testApp, 'SELECT count(*) FROM subscriptions WHERE user_uuid = $1', [userUuid]);

  it('tells the portal that card checkout is available', async () => {
    const dictionaries = await testApp.http.get('/api/dictionaries');
    expect(dictionaries.body.cardCheckoutAvailable).toBe(true);
  });

  it('opens a Stripe Checkout Session for the package price and records a PENDING card deposit', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);

    const session = stripe.session(opened.sessionId);
    expect(opened.url).toBe(session.url);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 2500,
      currency: 'usd',
      client_reference_id: String(opened.paymentId),
      customer_email: client.email,
      success_url: `https://kupa.example/paymentSuccess?paymentId=${opened.paymentId}`,
      cancel_url: `https://kupa.example/paymentFailed?paymentId=${opened.paymentId}`,
    });
    const created = stripe.requests.find((request) => request.form.client_reference_id === String(opened.paymentId));
    expect(created?.form['line_items[0][price_data][product_data][name]']).toBe('Card Gold');
    expect(created?.idempotencyKey).toBe(`kupa-checkout-${opened.paymentId}`);

    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({
      status: 'PENDING',
      type: 'DEPOSIT',
      aggregator: 'STRIPE',
      method: 'CARD',
      amount: 25,
      cashier: null,
      card: {
        provider: 'STRIPE',
        checkoutSessionId: opened.sessionId,
        providerPaymentId: null,
        providerStatus: 'unpaid',
        amountAsked: 25,
        amountReceived: 0,
      },
      purchase: { kind: 'BUY', paymentPlanId: plan.id, status: 'WAITING', subscriptionId: null },
    });
    // The owner reads the same provider side of their own payment.
    expect((await paymentOf(opened.paymentId, client.accessToken)).card?.checkoutSessionId).toBe(opened.sessionId);
  });

  it('charges the price less the referral discount a purchase from the balance would get, and records it', async () => {
    const referrer = await createActiveUser(testApp);
    const referred = await customerWithBalance(testApp, 25, { referralToken: referrer.user.profileId });
    const held = await bought(testApp, referred, plan.id);
    // Provisioning may have activated it already; either way it counts once ACTIVE.
    await activate(testApp, held.id).catch(() => undefined);
    expect((await read(testApp, held.id)).status).toBe('ACTIVE');

    const opened = await openCheckout(referrer);
    expect(stripe.session(opened.sessionId).amount_total).toBe(2375);
    expect((await paymentOf(opened.paymentId)).card?.amountAsked).toBe(23.75);
    stripe.pay(opened.sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId))).status).toBe(200);
    const payment = await paymentOf(opened.paymentId);
    expect(payment.purchase?.status).toBe('DONE');
    const subscription = await read(testApp, payment.purchase?.subscriptionId as string);
    expect(subscription.price).toBe(23.75);
    expect(await balanceMinorOf(testApp, referrer.userUuid)).toBe(0);
  });

  it('with a balance of −$10, a $25 package charges $35, and once paid it is bought and the balance is 0', async () => {
    const client = await customerInDebt(testApp, 10);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(-1000);
    const opened = await openCheckout(client);
    // The price alone would pay the debt and buy nothing.
    expect(stripe.session(opened.sessionId).amount_total).toBe(3500);
    expect((await paymentOf(opened.paymentId)).card?.amountAsked).toBe(35);
    stripe.pay(opened.sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId))).status).toBe(200);
    expect(await paymentOf(opened.paymentId)).toMatchObject({ status: 'SUCCESS', purchase: { status: 'DONE' } });
    expect(await subscriptionsOf(client.userUuid)).toBe(1);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
  });

  it('credits nothing for a session reported paid in EUR or for 1 cent: held for staff with what was reported', async () => {
    for (const [currency, amountTotalMinor] of [
      ['eur', 2500],
      ['usd', 1],
    ] as const) {
      const client = await customerWithBalance(testApp, 25);
      const opened = await openCheckout(client);
      const session = stripe.pay(opened.sessionId);
      session.currency = currency;
      session.amount_total = amountTotalMinor;
      const answer = await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ handled: true, status: 'REVIEW', credited: 0 });

      // Nothing credited, nothing bought, nothing taken from the balance that was already there.
      expect(await balanceMinorOf(testApp, client.userUuid)).toBe(2500);
      expect(await subscriptionsOf(client.userUuid)).toBe(0);
      const reported = { currency, amount: amountTotalMinor / 100 };
      expect(await paymentOf(opened.paymentId)).toMatchObject({
        status: 'REVIEW',
        card: { amountAsked: 25, amountReceived: 0, reported },
        purchase: { status: 'WAITING' },
      });
      // Staff find it in the payments list by its status, with what was asked against what was reported.
      const listed = await testApp.http
        .post(`/api/payments/search/${client.userUuid}`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ statuses: ['REVIEW'] });
      expect(listed.status).toBe(200);
      expect(listed.body.content).toMatchObject([
        { paymentId: opened.paymentId, status: 'REVIEW', card: { amountAsked: 25, reported } },
      ]);
      // The event log says what was reported; a later delivery, even of a correct session, credits nothing.
      const [event]: Array<{ data: { mismatch: unknown } }> = await testApp.dataSource.query(
        `SELECT data FROM events WHERE type = 'CardPaymentReported' AND data->>'paymentId' = $1`,
        [String(opened.paymentId)],
      );
      expect(event.data.mismatch).toEqual({ currency, amountTotalMinor });
      session.currency = 'usd';
      session.amount_total = 2500;
      expect((await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId))).body.credited).toBe(0);
      expect(await balanceMinorOf(testApp, client.userUuid)).toBe(2500);

      // Staff close it without money (a credit they decide on is a manual deposit); the money stays where it was.
      const closed = await testApp.http
        .put(`/api/payments/${opened.paymentId}/status`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ status: 'REJECTED' });
      expect(closed.status).toBe(200);
      expect(closed.body.status).toBe('REJECTED');
      expect(await balanceMinorOf(testApp, client.userUuid)).toBe(2500);
      const credit = await testApp.http
        .put(`/api/payments/${opened.paymentId}/status`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ status: 'SUCCESS' });
      expect(credit.status).toBe(409);
      expect(credit.body.error).toBe('error.payment.status.manual.only');
    }
  });

  it('refuses packages staff keep off card sale, and keeps the flag on the package', async () => {
    const client = await createActiveUser(testApp);
    const offCard = await createPlan(testApp, { price: 12, cardPaymentAllowed: false });
    expect(offCard.cardPaymentAllowed).toBe(false);
    expect(plan.cardPaymentAllowed).toBe(true);
    const sessionsBefore = stripe.sessions.size;

    const refused = await checkout(client.accessToken, offCard.id, { login: uniqueLogin(), password: 'secret-pass' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('error.package.cannot.be.bought.via.card.provider');
    expect(stripe.sessions.size).toBe(sessionsBefore);

    // Staff allow it again (an update that leaves the flag out keeps it as it is set to here).
    const { id, createdAt: _createdAt, updatedAt: _updatedAt, ...terms } = offCard;
    const updated = await testApp.http
      .put(`/api/payment-plans/${id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...terms, cardPaymentAllowed: true });
    expect(updated.status).toBe(200);
    expect((updated.body as Plan).cardPaymentAllowed).toBe(true);
    const allowed = await checkout(client.accessToken, offCard.id, { login: uniqueLogin(), password: 'secret-pass' });
    expect(allowed.status).toBe(201);
  });

  it('refuses what a purchase would refuse, before asking Stripe', async () => {
    const client = await createActiveUser(testApp);
    const inactive = await createPlan(testApp, { status: 'INACTIVE' });
    const sessionsBefore = stripe.sessions.size;
    const notActive = await checkout(client.accessToken, inactive.id, { login: uniqueLogin(), password: 'pw-pass' });
    expect([notActive.status, notActive.body.error]).toEqual([409, 'error.payment.plan.not.active']);
    const missing = await checkout(client.accessToken, '5b0c6a52-93a4-4d0b-9c55-1d0c3b7f2a10', {
      login: uniqueLogin(),
      password: 'pw-pass',
    });
    expect([missing.status, missing.body.error]).toEqual([404, 'error.payment.plan.not.found']);
    const invalid = await checkout(client.accessToken, plan.id, { login: 'No Spaces!', password: 'pw-pass' });
    expect(invalid.status).toBe(400);
    expect(stripe.sessions.size).toBe(sessionsBefore);
  });

  it('lets only clients and ambassadors open a checkout', async () => {
    const body = { login: uniqueLogin(), password: 'secret-pass' };
    expect((await checkout(null, plan.id, body)).status).toBe(401);
    expect((await checkout(admin, plan.id, body)).status).toBe(403);
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect((await checkout(manager.accessToken, plan.id, body)).status).toBe(403);
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    expect((await checkout(ambassador.accessToken, plan.id, body)).status).toBe(201);
  });

  it('answers 503 and records nothing while Stripe does not answer', async () => {
    const client = await createActiveUser(testApp);
    const paymentsBefore = await countRows(testApp, `SELECT count(*) FROM payments WHERE aggregator = 'STRIPE'`);
    stripe.failing = true;
    try {
      const response = await checkout(client.accessToken, plan.id, { login: uniqueLogin(), password: 'pw-pass' });
      expect([response.status, response.body.error]).toEqual([503, 'error.card.provider.unavailable']);
    } finally {
      stripe.failing = false;
    }
    expect(await countRows(testApp, `SELECT count(*) FROM payments WHERE aggregator = 'STRIPE'`)).toBe(paymentsBefore);
  });

  it('credits nothing for forged, unsigned or re-serialised webhooks', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);
    stripe.pay(opened.sessionId);

    const forged = stripe.signedEvent('checkout.session.completed', opened.sessionId, { secret: 'whsec_forged' });
    const refused = await deliver(forged);
    expect([refused.status, refused.body.error]).toEqual([400, 'error.card.webhook.signature.invalid']);
    expect((await deliver({ ...forged, signature: null })).status).toBe(400);

    // A genuine signature over other bytes: the same event re-serialised with different spacing.
    const genuine = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    const reserialised = JSON.stringify(JSON.parse(genuine.payload), null, 2);
    expect((await deliver({ payload: reserialised, signature: genuine.signature })).status).toBe(400);

    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
    expect((await paymentOf(opened.paymentId)).status).toBe('PENDING');
    expect(await subscriptionsOf(client.userUuid)).toBe(0);
  });

  it('credits and buys once for the same webhook delivered five times, in parallel and after', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);
    stripe.pay(opened.sessionId);
    const event = stripe.signedEvent('checkout.session.completed', opened.sessionId);

    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    answers.push(await deliver(event), await deliver(event));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers.reduce((sum, answer) => sum + (answer.body as { credited: number }).credited, 0)).toBe(25);

    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({
      status: 'SUCCESS',
      amount: 25,
      card: {
        provider: 'STRIPE',
        providerStatus: 'paid',
        providerPaymentId: stripe.session(opened.sessionId).payment_intent,
        amountAsked: 25,
        amountReceived: 25,
      },
      purchase: { status: 'DONE', errorCode: null },
    });
    expect(payment.purchase?.subscriptionId).toEqual(expect.any(String));
    // The 25 arrived from world:stripe and paid for the package in the same append: the balance is back to zero.
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
    const [credit]: Array<{ account: string }> = await testApp.dataSource.query(
      `SELECT account FROM ledger_entries WHERE payment_id = $1 AND event_type = 'CardDepositCredited'
        AND amount_minor < 0`,
      [opened.paymentId],
    );
    expect(credit?.account).toBe('world:stripe');
    expect(await subscriptionsOf(client.userUuid)).toBe(1);
    const [{ positions }]: Array<{ positions: string }> = await testApp.dataSource.query(
      `SELECT count(DISTINCT transaction_id)::text AS positions FROM events
        WHERE type IN ('CardDepositCredited', 'SubscriptionPurchased', 'DepositPurchaseCompleted')
          AND (data->>'paymentId' = $1 OR stream_id = $2)`,
      [String(opened.paymentId), `subscription-${payment.purchase?.subscriptionId}`],
    );
    expect(positions).toBe('1');
    const subscription = await testApp.http
      .get(`/api/subscriptions/${payment.purchase?.subscriptionId}`)
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(subscription.body).toMatchObject({ login: opened.login, price: 25, userUuid: client.userUuid });
  });

  it("books an ambassador's bonus with the card money, once, and the bonus stays on the balance", async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const dear = await createPlan(testApp, { price: 60 });
    const opened = await openCheckout(ambassador, dear.id);
    stripe.pay(opened.sessionId);
    const event = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    await Promise.all([deliver(event), deliver(event)]);
    await deliver(stripe.signedEvent('checkout.session.async_payment_succeeded', opened.sessionId));

    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({ status: 'SUCCESS', amount: 60, purchase: { status: 'DONE' } });
    expect(payment.bonusPaymentId).toEqual(expect.any(Number));
    const bonus = await paymentOf(payment.bonusPaymentId as number);
    expect(bonus).toMatchObject({
      type: 'AMBASSADOR_BONUS',
      status: 'SUCCESS',
      amount: 3,
      bonusForPaymentId: opened.paymentId,
    });
    // 60 from Stripe, 60 for the package, 3 of bonus (the lowest tier's 5 %) left on the balance.
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(300);
    expect(
      await countRows(testApp, `SELECT count(*) FROM payments WHERE user_uuid = $1 AND type = 'AMBASSADOR_BONUS'`, [
        ambassador.userUuid,
      ]),
    ).toBe(1);
  });

  it('is safe out of order: succeeded before completed, then a stale failure, credits once', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);
    // A delayed method: the checkout completes unpaid first…
    stripe.complete(opened.sessionId, false);
    const completedUnpaid = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    stripe.pay(opened.sessionId);
    const succeeded = stripe.signedEvent('checkout.session.async_payment_succeeded', opened.sessionId);
    const failed = stripe.signedEvent('checkout.session.async_payment_failed', opened.sessionId);

    // …but the success arrives first; the late "completed" and a failure after it change nothing.
    expect((await deliver(succeeded)).body).toMatchObject({ handled: true, status: 'SUCCESS', credited: 25 });
    expect((await deliver(completedUnpaid)).body).toMatchObject({ status: 'SUCCESS', credited: 0 });
    expect((await deliver(failed)).body).toMatchObject({ status: 'SUCCESS', credited: 0 });
    expect((await deliver(succeeded)).body).toMatchObject({ credited: 0 });

    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({ status: 'SUCCESS', card: { providerStatus: 'paid', amountReceived: 25 } });
    expect(payment.purchase?.status).toBe('DONE');
    expect(await subscriptionsOf(client.userUuid)).toBe(1);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
  });

  it('waits on a completed but unpaid checkout, and fails it when the delayed payment fails', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);
    stripe.complete(opened.sessionId, false);
    const pending = await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId));
    expect(pending.body).toMatchObject({ handled: true, status: 'PENDING', credited: 0 });
    expect((await paymentOf(opened.paymentId)).card?.providerPaymentId).toBe(
      stripe.session(opened.sessionId).payment_intent,
    );

    const failed = await deliver(stripe.signedEvent('checkout.session.async_payment_failed', opened.sessionId));
    expect(failed.body).toMatchObject({ status: 'FAILED', credited: 0 });
    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({ status: 'FAILED', card: { providerStatus: 'failed', amountReceived: 0 } });
    expect(payment.purchase?.status).toBe('WAITING');
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
    expect(await subscriptionsOf(client.userUuid)).toBe(0);
  });

  it('keeps the money on the balance and tells the client when the package was repriced or withdrawn', async () => {
    const client = await createActiveUser(testApp, { language: 'en' });
    const repriced = await createPlan(testApp, { price: 20 });
    const withdrawn = await createPlan(testApp, { price: 15 });
    const first = await openCheckout(client, repriced.id);
    const second = await openCheckout(client, withdrawn.id);

    const { id, createdAt: _createdAt, updatedAt: _updatedAt, ...terms } = repriced;
    const raised = await testApp.http
      .put(`/api/payment-plans/${id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...terms, price: 30 });
    expect(raised.status).toBe(200);
    const deactivated = await testApp.http
      .put(`/api/payment-plans/${withdrawn.id}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'INACTIVE' });
    expect(deactivated.status).toBe(200);

    stripe.pay(first.sessionId);
    stripe.pay(second.sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', first.sessionId))).status).toBe(200);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', second.sessionId))).status).toBe(200);

    for (const opened of [first, second]) {
      const payment = await paymentOf(opened.paymentId, client.accessToken);
      expect(payment.status).toBe('SUCCESS');
      expect(payment.purchase).toMatchObject({
        status: 'FAILED',
        errorCode: 'error.plan.no.longer.available',
        subscriptionId: null,
      });
    }
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(3500);
    const mail = await testApp.mailbox.waitFor(client.email, (sent) => /could not buy/.test(sent.subject));
    expect(mail.text).toContain('Your card payment of');
    expect(mail.text).toContain('is on your balance');
    expect(await subscriptionsOf(client.userUuid)).toBe(0);
    // The purchases will not happen: their passwords are not kept.
    const intended: Array<{ id: string }> = await testApp.dataSource.query(
      `SELECT data->>'subscriptionId' AS id FROM events WHERE type = 'DepositPurchaseRequested'
        AND (data->>'paymentId')::bigint IN ($1, $2)`,
      [first.paymentId, second.paymentId],
    );
    expect(intended).toHaveLength(2);
    expect(
      await countRows(testApp, 'SELECT count(*) FROM subscription_secrets WHERE subscription_id = ANY($1::uuid[])', [
        intended.map((row) => row.id),
      ]),
    ).toBe(0);
  });

  it('acknowledges events about checkouts that are not ours, and ignores other event types', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openCheckout(client);
    const foreign = stripe.session(opened.sessionId);
    // A session of another integration on the same account: another reference.
    const stranger = { ...foreign, id: 'cs_test_stranger', client_reference_id: '999999999', metadata: {} };
    stripe.sessions.set(stranger.id, stranger);
    const answer = await deliver(stripe.signedEvent('checkout.session.completed', stranger.id));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ handled: false, credited: 0 });
    const other = await deliver(stripe.signedEvent('payment_intent.created', opened.sessionId));
    expect(other.body).toMatchObject({ handled: false });
    expect((await paymentOf(opened.paymentId)).status).toBe('PENDING');
  });

  it('keeps every read model equal to the replay and passes `kupa ledger verify`', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});

describe('Card checkout without STRIPE_* configured', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // A real deployment: without the sandboxes no sandbox card stands in for Stripe (ADR 0080), and a real
    // deployment names its streaming service (nothing is bought here, so nothing reaches it).
    testApp = await startTestApp({ env: { KUPA_SANDBOX: '0', PROVISIONING_URL: 'http://127.0.0.1:9' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers error.card.provider.unavailable (503) to checkouts and webhooks, and says so in the dictionaries', async () => {
    const client = await createActiveUser(testApp);
    const plan = await createPlan(testApp);
    const checkout = await testApp.http
      .post(CARD_CHECKOUT(plan.id))
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ login: uniqueLogin(), password: 'secret-pass' });
    expect([checkout.status, checkout.body.error]).toEqual([503, 'error.card.provider.unavailable']);
    const webhook = await testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=00')
      .send(JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed' }));
    expect([webhook.status, webhook.body.error]).toEqual([503, 'error.card.provider.unavailable']);
    expect(await countRows(testApp, `SELECT count(*) FROM payments WHERE aggregator = 'STRIPE'`)).toBe(0);
    const dictionaries = await testApp.http.get('/api/dictionaries');
    expect(dictionaries.body.cardCheckoutAvailable).toBe(false);
  });
});

describe('The card janitor: checkouts whose webhook never came', () => {
  const WINDOW_MINUTES = 60;
  const clock = new ManualClock(new Date('2026-05-01T10:00:00Z'));
  let testApp: TestApp;
  let stripe: FakeStripe;
  let admin: string;
  let plan: Plan;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      clock,
      env: {
        ...stripe.env(),
        PUBLIC_URL: 'https://kupa.example',
        CARD_PENDING_TIMEOUT_MINUTES: String(WINDOW_MINUTES),
        // The janitor runs when the spec says so (`sweepNow`), not on its own timer.
        CARD_JANITOR_INTERVAL_MS: '3600000',
      },
    });
    admin = await adminToken(testApp);
    plan = await createPlan(testApp, { price: 25, name: 'Card Janitor' });
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  /** A client's checkout of the package, as the portal opens it. */
  const opened = () => openCardCheckout(testApp, plan.id, 'late');

  const statusOf = async (paymentId: number) =>
    ((await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${admin}`)).body as Payment)
      .status;

  it('closes an abandoned checkout (TIMEOUT), books a paid one whose webhook was lost, and leaves a recent one', async () => {
    const schedules = testApp.app.get(Schedules);
    const abandoned = await opened();
    const paidUnheard = await opened();
    // Paid at Stripe, but no webhook reaches us.
    stripe.pay(paidUnheard.sessionId);
    clock.set(new Date(clock.now().getTime() + (WINDOW_MINUTES + 1) * 60_000));
    const recent = await opened();

    await schedules.sweepNow(CARD_JANITOR_SWEEP);

    // Closed at Stripe first, so nobody pays it after we gave up on it.
    expect(stripe.session(abandoned.sessionId).status).toBe('expired');
    expect(await statusOf(abandoned.paymentId)).toBe('TIMEOUT');
    expect(
      await countRows(testApp, 'SELECT count(*) FROM subscriptions WHERE user_uuid = $1', [abandoned.client.userUuid]),
    ).toBe(0);
    expect(await statusOf(paidUnheard.paymentId)).toBe('SUCCESS');
    const [subscription]: Array<{ id: string; login: string }> = await testApp.dataSource.query(
      `SELECT id, login FROM subscriptions WHERE user_uuid = $1`,
      [paidUnheard.client.userUuid],
    );
    expect(subscription.login).toBe(paidUnheard.login);
    // The streaming service activates it a moment later, on its own events: that is not the janitor's doing.
    expect((await settled(testApp, subscription.id)).status).toBe('ACTIVE');
    // The 25 came from world:stripe and paid for the package: the balance is back to zero.
    expect(await balanceMinorOf(testApp, paidUnheard.client.userUuid)).toBe(0);
    expect(await statusOf(recent.paymentId)).toBe('PENDING');
    expect(stripe.session(recent.sessionId).status).toBe('open');

    // A second pass, and the real webhook arriving late, change nothing.
    const eventsBefore = await countRows(testApp, 'SELECT count(*) FROM events');
    await schedules.sweepNow(CARD_JANITOR_SWEEP);
    const late = stripe.signedEvent('checkout.session.completed', paidUnheard.sessionId);
    const answer = await testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', late.signature as string)
      .send(late.payload);
    expect([answer.status, (answer.body as { credited: number }).credited]).toEqual([200, 0]);
    expect(await countRows(testApp, 'SELECT count(*) FROM events')).toBe(eventsBefore);
    await expectLedgerVerifyOk(testApp);
  });

  it('leaves a checkout for the next pass while Stripe does not answer', async () => {
    const schedules = testApp.app.get(Schedules);
    const waiting = await opened();
    clock.set(new Date(clock.now().getTime() + (WINDOW_MINUTES + 1) * 60_000));
    stripe.failing = true;
    try {
      await schedules.sweepNow(CARD_JANITOR_SWEEP);
      expect(await statusOf(waiting.paymentId)).toBe('PENDING');
    } finally {
      stripe.failing = false;
    }
    await schedules.sweepNow(CARD_JANITOR_SWEEP);
    expect(await statusOf(waiting.paymentId)).toBe('TIMEOUT');
  });
});
