import type { Payment, Plan } from '@kupa/proto';
import Stripe from 'stripe';
import { CardProvider, CardProviderSettings, stripeConnectionOf } from '../../../../platform/card-provider';
import { UNREACHABLE_STRIPE_ENV } from '../../../../test-support/fake-stripe';
import { adminToken } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  balanceMinorOf,
  countRows,
  createPlan,
  expectLedgerVerifyOk,
  openCardCheckout,
  read,
  settled,
} from '../../subscriptions.fixtures';

/** The path and query of a URL at the test app's public address, for supertest. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/*
 * The sandbox card's routes stand in for Stripe and are left out of the API document, so the specs call them
 * through `rawHttp`; our own routes (the checkout, the webhook, the reads) stay contract-checked.
 */
describe('Card checkout through the sandbox card (the real SDK against our own Stripe stand-in)', () => {
  let testApp: TestApp;
  let admin: string;
  let plan: Plan;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { KUPA_SANDBOX: '1' } });
    admin = await adminToken(testApp);
    plan = await createPlan(testApp, { price: 25, name: 'Sandbox Card Gold' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const openCheckout = () => openCardCheckout(testApp, plan.id, 'sbcard');

  const paymentOf = async (paymentId: number): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };

  /** The SDK as our adapter configures it for the sandbox. */
  const sdk = () => {
    const settings = testApp.app.get(CardProviderSettings);
    return new Stripe(settings.secretKey, { ...stripeConnectionOf(settings.apiBase()), maxNetworkRetries: 0 });
  };

  it('offers card checkout without Stripe, because the sandbox card stands in', async () => {
    const dictionaries = await testApp.http.get('/api/dictionaries');
    expect(dictionaries.body.cardCheckoutAvailable).toBe(true);
    // What its checkouts record as their provider, and so the account their money comes from (ADR 0080).
    expect(testApp.app.get(CardProvider).name).toBe('SANDBOX');
  });

  it('buys a package by card end to end: open, Pay on the test page, signed webhook, active and in the ledger', async () => {
    const opened = await openCheckout();
    expect(opened.url).toMatch(/^http:\/\/kupa\.test\/api\/sandbox\/card\/checkouts\/cs_test_sandbox_\w+\?signature=/);
    expect(await paymentOf(opened.paymentId)).toMatchObject({
      status: 'PENDING',
      aggregator: 'STRIPE',
      method: 'CARD',
      card: { provider: 'SANDBOX', checkoutSessionId: opened.sessionId, providerStatus: 'unpaid', amountAsked: 25 },
    });

    // The page: marked as a test, in both languages, and with no field for a card number at all.
    const page = await testApp.rawHttp.get(local(opened.url));
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('זהו דף תשלום לניסוי');
    expect(page.text).toContain('Sandbox Card Gold');
    expect(page.text).not.toMatch(/<input/i);
    const english = await testApp.rawHttp.get(`${local(opened.url)}&lang=en`);
    expect(english.text).toContain('This is a sandbox checkout page, not Stripe');
    const cancel = /data-action="cancel" href="([^"]+)"/.exec(english.text)?.[1];
    expect(cancel).toBe(`http://kupa.test/paymentFailed?paymentId=${opened.paymentId}`);

    // Pay, as the page's form posts it: the payer is sent on to the success address once the webhook has run.
    const url = new URL(opened.url);
    const pay = await testApp.rawHttp
      .post(`${url.pathname}/pay${url.search}`)
      .set('Accept', 'text/html')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('');
    expect(pay.status).toBe(303);
    expect(pay.headers.location).toBe(`http://kupa.test/paymentSuccess?paymentId=${opened.paymentId}`);

    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({
      status: 'SUCCESS',
      card: { providerStatus: 'paid', amountReceived: 25 },
      purchase: { status: 'DONE' },
    });
    expect(payment.card?.providerPaymentId).toMatch(/^pi_test_sandbox_/);
    const subscription = await settled(testApp, payment.purchase?.subscriptionId as string);
    expect(subscription).toMatchObject({ status: 'ACTIVE', login: opened.login });
    expect((await read(testApp, subscription.id)).price).toBe(25);
    // $25 came in by card and bought the $25 package.
    expect(await balanceMinorOf(testApp, opened.client.userUuid)).toBe(0);
    // Money nobody paid comes from the sandbox card's own account, never from Stripe's (ADR 0080).
    const entries: Array<{ account: string; amount_minor: string }> = await testApp.dataSource.query(
      `SELECT account, amount_minor::text FROM ledger_entries
        WHERE payment_id = $1 AND event_type = 'CardDepositCredited' ORDER BY entry_id`,
      [opened.paymentId],
    );
    expect(entries).toEqual([
      { account: 'world:sandbox-card', amount_minor: '-2500' },
      { account: `user:${opened.client.userUuid}`, amount_minor: '2500' },
    ]);
    expect(await countRows(testApp, `SELECT count(*) FROM ledger_entries WHERE account = 'world:stripe'`)).toBe(0);
    const history = await testApp.http
      .get('/api/ledger/accounts/world:sandbox-card/history')
      .set('Authorization', `Bearer ${admin}`);
    expect(history.status).toBe(200);
    // Staff can read what the sandbox "paid" in all, apart from any real money.
    expect(history.body.balance).toBeLessThanOrEqual(-25);
    await expectLedgerVerifyOk(testApp);

    // A second press changes nothing and sends nothing.
    const again = await testApp.rawHttp.post(`${url.pathname}/pay${url.search}`).send();
    expect([again.status, again.body.error]).toEqual([409, 'error.card.sandbox.checkout.closed']);
    expect(
      await countRows(testApp, `SELECT count(*) FROM events WHERE type = 'CardDepositCredited'`),
    ).toBeGreaterThanOrEqual(1);
    expect((await paymentOf(opened.paymentId)).card?.amountReceived).toBe(25);
  });

  it('takes two presses of Pay at once in turn: one pays and credits once, the other is 409', async () => {
    const opened = await openCheckout();
    const url = new URL(opened.url);
    const presses = await Promise.all(
      [1, 2].map(() => testApp.rawHttp.post(`${url.pathname}/pay${url.search}`).send()),
    );
    expect(presses.map((press) => press.status).sort()).toEqual([200, 409]);
    const paid = presses.find((press) => press.status === 200);
    expect(paid?.body).toMatchObject({ status: 'complete', paymentStatus: 'paid', webhookStatus: 200 });
    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({ status: 'SUCCESS', card: { amountReceived: 25 } });
    expect(
      await countRows(
        testApp,
        `SELECT count(*) FROM events WHERE type = 'CardDepositCredited' AND data->>'paymentId' = $1`,
        [String(opened.paymentId)],
      ),
    ).toBe(1);
  });

  it('keeps its sessions in the database, so every API process answers for them', async () => {
    const opened = await openCheckout();
    const rows: Array<{ amount: string; status: string }> = await testApp.dataSource.query(
      `SELECT amount_total_minor::text AS amount, status FROM sandbox_card_sessions WHERE session_id = $1`,
      [opened.sessionId],
    );
    expect(rows).toEqual([{ amount: '2500', status: 'open' }]);
  });

  it("speaks Stripe's API to the SDK: a bearer key, idempotent creation, retrieve and expire", async () => {
    const stripe = sdk();
    const parameters: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      client_reference_id: '999999',
      line_items: [{ quantity: 2, price_data: { currency: 'usd', unit_amount: 700, product_data: { name: 'x' } } }],
      success_url: 'http://kupa.test/ok',
      cancel_url: 'http://kupa.test/no',
    };
    const first = await stripe.checkout.sessions.create(parameters, { idempotencyKey: 'sandbox-spec-1' });
    const second = await stripe.checkout.sessions.create(parameters, { idempotencyKey: 'sandbox-spec-1' });
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({ amount_total: 1400, currency: 'usd', status: 'open', payment_status: 'unpaid' });
    expect((await stripe.checkout.sessions.retrieve(first.id)).id).toBe(first.id);
    expect((await stripe.checkout.sessions.expire(first.id)).status).toBe('expired');
    await expect(stripe.checkout.sessions.expire(first.id)).rejects.toMatchObject({ statusCode: 409 });

    // An expired checkout cannot be paid.
    const link = new URL(first.url as string);
    const pay = await testApp.rawHttp.post(`${link.pathname}/pay${link.search}`).send();
    expect([pay.status, pay.body.error]).toEqual([409, 'error.card.sandbox.checkout.closed']);

    const unauthorised = await testApp.rawHttp.get(`/api/sandbox/card/v1/checkout/sessions/${first.id}`);
    expect([unauthorised.status, unauthorised.body.error]).toEqual([401, 'error.card.sandbox.api.key.invalid']);
    const wrongKey = await testApp.rawHttp
      .get(`/api/sandbox/card/v1/checkout/sessions/${first.id}`)
      .set('Authorization', 'Bearer sk_test_guess');
    expect(wrongKey.status).toBe(401);
  });

  it('opens the page and takes Pay only through the link: no key, a wrong key or a guessed id is 404', async () => {
    const opened = await openCheckout();
    const path = new URL(opened.url).pathname;
    for (const call of [
      testApp.rawHttp.get(path),
      testApp.rawHttp.get(`${path}?signature=wrong`),
      testApp.rawHttp.post(`${path}/pay`).send(),
      testApp.rawHttp.post(`${path}/pay?signature=wrong`).send(),
      testApp.rawHttp.get(`/api/sandbox/card/checkouts/cs_test_sandbox_guessed${new URL(opened.url).search}`),
    ]) {
      const response = await call;
      expect([response.status, response.body.error]).toEqual([404, 'error.card.sandbox.checkout.not.found']);
    }
    expect((await paymentOf(opened.paymentId)).status).toBe('PENDING');
  });

  it('refuses a forged webhook (a signature not made with the sandbox secret) and credits nothing', async () => {
    const opened = await openCheckout();
    const session = await sdk().checkout.sessions.retrieve(opened.sessionId);
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { ...session, status: 'complete', payment_status: 'paid' } },
    });
    const forged = new Stripe('sk_test_forger').webhooks.generateTestHeaderString({ payload, secret: 'whsec_forged' });
    const response = await testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', forged)
      .send(payload);
    expect([response.status, response.body.error]).toEqual([400, 'error.card.webhook.signature.invalid']);
    expect((await paymentOf(opened.paymentId)).status).toBe('PENDING');
    expect(await balanceMinorOf(testApp, opened.client.userUuid)).toBe(0);
  });
});

describe('The sandbox card on a real deployment', () => {
  const SANDBOX_ROUTES = [
    ['get', '/api/sandbox/card/checkouts/cs_test_sandbox_1?signature=x'],
    ['post', '/api/sandbox/card/checkouts/cs_test_sandbox_1/pay?signature=x'],
    ['get', '/api/sandbox/card/v1/checkout/sessions/cs_test_sandbox_1'],
    ['post', '/api/sandbox/card/v1/checkout/sessions/cs_test_sandbox_1/expire'],
    ['post', '/api/sandbox/card/v1/checkout/sessions'],
    // Saved cards (docs/adr/0087-sandbox-saved-cards.md): the setup page, its Save, and the rest of Stripe's API.
    ['get', '/api/sandbox/card/setups/cs_test_sandbox_1?signature=x'],
    ['post', '/api/sandbox/card/setups/cs_test_sandbox_1/save?signature=x'],
    ['post', '/api/sandbox/card/v1/customers'],
    ['get', '/api/sandbox/card/v1/setup_intents/seti_test_sandbox_1'],
    ['get', '/api/sandbox/card/v1/payment_methods/pm_test_sandbox_1'],
    ['post', '/api/sandbox/card/v1/payment_methods/pm_test_sandbox_1/detach'],
    ['post', '/api/sandbox/card/v1/payment_intents'],
    ['get', '/api/sandbox/card/v1/payment_intents/pi_test_sandbox_1'],
  ] as const;

  it.each([
    [
      'the sandboxes are off (KUPA_SANDBOX=0, a real streaming service)',
      { KUPA_SANDBOX: '0', PROVISIONING_URL: 'http://127.0.0.1:9' },
    ],
    ['STRIPE_SECRET_KEY is set, even with KUPA_SANDBOX=1', { KUPA_SANDBOX: '1', ...UNREACHABLE_STRIPE_ENV }],
  ])('answers 404 on every sandbox card route when %s', async (_why, env: Record<string, string>) => {
    const testApp = await startTestApp({ env });
    try {
      for (const [method, path] of SANDBOX_ROUTES) {
        const response = await testApp.rawHttp[method](path).set('Authorization', 'Bearer sk_test_anything');
        expect([method, path, response.status, response.body.error]).toEqual([
          method,
          path,
          404,
          'error.card.sandbox.off',
        ]);
      }
      const dictionaries = await testApp.http.get('/api/dictionaries');
      expect(dictionaries.body.cardCheckoutAvailable).toBe('STRIPE_SECRET_KEY' in env);
      // Nothing was written where the sandbox is off: no customer, session, card or payment of its own.
      for (const table of ['sandbox_card_customers', 'sandbox_card_setup_sessions', 'sandbox_card_payment_intents'])
        expect(await testApp.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)).toEqual([{ n: 0 }]);
      // With a Stripe key, sandboxes on or not, checkouts are Stripe's: never booked as sandbox money.
      expect(testApp.app.get(CardProvider).name).toBe('STRIPE');
    } finally {
      await testApp.close();
    }
  });
});
