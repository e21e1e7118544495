import {
  type AuditLog,
  auditSentence,
  type CardCheckoutResponse,
  type Page,
  type Payment,
  PAYMENTS_CSV_COLUMNS,
} from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { FakeStripe } from '../../../../test-support/fake-stripe';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { parseStrictCsv } from '../../../../test-support/strict-csv';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

const TOP_UP = '/api/payments/card/deposit';

/** The card janitor's sweep name (subscriptions' `CARD_JANITOR_SWEEP`; the ledger does not import that context). */
const CARD_JANITOR = 'card-janitor';

/**
 * Card top-ups of the balance (docs/adr/0082-card-top-ups.md) through the real `stripe` SDK against the local fake
 * Stripe API: opened within the deposit limits, credited once by the verified webhook (or the janitor), whatever
 * order and however many times the provider speaks, with an ambassador's bonus, behind the operator's switch.
 */
describe('Card top-ups of the balance', () => {
  const WINDOW_MINUTES = 60;
  const clock = new ManualClock(new Date('2026-06-01T10:00:00Z'));
  let testApp: TestApp;
  let stripe: FakeStripe;
  let admin: string;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      clock,
      env: {
        ...stripe.env(),
        PUBLIC_URL: 'https://kupa.example',
        CARD_PENDING_TIMEOUT_MINUTES: String(WINDOW_MINUTES),
        CARD_JANITOR_INTERVAL_MS: '3600000',
      },
    });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  const topUp = (app: TestApp, token: string, body: object) =>
    app.http.post(TOP_UP).set('Authorization', `Bearer ${token}`).send(body);

  const openTopUp = async (customer: ActiveUser, amount = 40) => {
    const response = await topUp(testApp, customer.accessToken, { amount });
    expect(response.status).toBe(201);
    const answer = response.body as CardCheckoutResponse;
    return { ...answer, sessionId: answer.url.split('/').pop() as string };
  };

  const deliver = (event: { payload: string; signature: string }, app = testApp) =>
    app.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature)
      .send(event.payload);

  const paymentOf = async (paymentId: number, token = admin): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };

  it('says in the dictionaries that the card can top up the balance', async () => {
    const dictionaries = await testApp.http.get('/api/dictionaries');
    expect(dictionaries.body).toMatchObject({ cardCheckoutAvailable: true, cardTopUpAvailable: true });
  });

  it('opens a payment-mode checkout for the amount asked and records a PENDING card deposit with no purchase', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openTopUp(client, 40);
    const session = stripe.session(opened.sessionId);
    expect(opened.url).toBe(session.url);
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 4000,
      currency: 'usd',
      client_reference_id: String(opened.paymentId),
      customer_email: client.email,
      success_url: `https://kupa.example/paymentSuccess?paymentId=${opened.paymentId}`,
      cancel_url: `https://kupa.example/paymentFailed?paymentId=${opened.paymentId}`,
    });
    const created = stripe.requests.find((request) => request.form.client_reference_id === String(opened.paymentId));
    expect(created?.idempotencyKey).toBe(`kupa-checkout-${opened.paymentId}`);
    expect(await paymentOf(opened.paymentId, client.accessToken)).toMatchObject({
      status: 'PENDING',
      type: 'DEPOSIT',
      aggregator: 'STRIPE',
      method: 'CARD',
      amount: 40,
      card: { provider: 'STRIPE', checkoutSessionId: opened.sessionId, amountAsked: 40, amountReceived: 0 },
      purchase: null,
    });
  });

  it('credits the balance once for the same webhook delivered five times, in parallel and after', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openTopUp(client, 40);
    stripe.pay(opened.sessionId);
    const event = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    const answers = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    answers.push(
      await deliver(event),
      await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId)),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers.reduce((sum, answer) => sum + (answer.body as { credited: number }).credited, 0)).toBe(40);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(4000);
    expect(await paymentOf(opened.paymentId)).toMatchObject({
      status: 'SUCCESS',
      amount: 40,
      card: { providerStatus: 'paid', amountReceived: 40 },
      purchase: null,
      bonusPaymentId: null,
    });
    const [credit]: Array<{ account: string }> = await testApp.dataSource.query(
      `SELECT account FROM ledger_entries WHERE payment_id = $1 AND event_type = 'CardDepositCredited'
        AND amount_minor < 0`,
      [opened.paymentId],
    );
    expect(credit?.account).toBe('world:stripe');
  });

  it('is safe out of order: completed then expired credits once; expired then completed credits what was paid', async () => {
    const client = await createActiveUser(testApp);
    const first = await openTopUp(client, 20);
    stripe.pay(first.sessionId);
    const completed = stripe.signedEvent('checkout.session.completed', first.sessionId);
    const expired = stripe.signedEvent('checkout.session.expired', first.sessionId);
    expect((await deliver(completed)).body).toMatchObject({ status: 'SUCCESS', credited: 20 });
    expect((await deliver(expired)).body).toMatchObject({ status: 'SUCCESS', credited: 0 });

    // An `expired` event delivered before the `completed` one: the read-back says paid, so the money is credited.
    const second = await openTopUp(client, 30);
    stripe.pay(second.sessionId);
    const staleExpired = stripe.signedEvent('checkout.session.expired', second.sessionId);
    const lateCompleted = stripe.signedEvent('checkout.session.completed', second.sessionId);
    expect((await deliver(staleExpired)).body).toMatchObject({ status: 'SUCCESS', credited: 30 });
    expect((await deliver(lateCompleted)).body).toMatchObject({ status: 'SUCCESS', credited: 0 });

    // A session that really expired is TIMEOUT; money that still arrives after that is credited (ADR 0029).
    const third = await openTopUp(client, 10);
    stripe.expire(third.sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.expired', third.sessionId))).body).toMatchObject({
      status: 'TIMEOUT',
      credited: 0,
    });
    stripe.pay(third.sessionId);
    expect((await deliver(stripe.signedEvent('checkout.session.completed', third.sessionId))).body).toMatchObject({
      status: 'SUCCESS',
      credited: 10,
    });
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(6000);
  });

  it('credits nothing for a session paid in EUR or for another amount: held for staff', async () => {
    for (const [currency, amountTotalMinor] of [
      ['eur', 4000],
      ['usd', 3999],
    ] as const) {
      const client = await createActiveUser(testApp);
      const opened = await openTopUp(client, 40);
      const session = stripe.pay(opened.sessionId);
      session.currency = currency;
      session.amount_total = amountTotalMinor;
      const answer = await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId));
      expect(answer.body).toMatchObject({ handled: true, status: 'REVIEW', credited: 0 });
      expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
      expect(await paymentOf(opened.paymentId)).toMatchObject({
        status: 'REVIEW',
        card: { amountAsked: 40, amountReceived: 0, reported: { currency, amount: amountTotalMinor / 100 } },
      });
    }
  });

  it("books an ambassador's bonus with the card money, as for a crypto deposit, once", async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const opened = await openTopUp(ambassador, 200);
    stripe.pay(opened.sessionId);
    const event = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    await Promise.all([deliver(event), deliver(event)]);
    await deliver(stripe.signedEvent('checkout.session.async_payment_succeeded', opened.sessionId));
    const payment = await paymentOf(opened.paymentId);
    expect(payment).toMatchObject({ status: 'SUCCESS', amount: 200 });
    const bonus = await paymentOf(payment.bonusPaymentId as number);
    // $200 reaches the second tier: 10 %.
    expect(bonus).toMatchObject({ type: 'AMBASSADOR_BONUS', status: 'SUCCESS', amount: 20 });
    expect(bonus.bonusForPaymentId).toBe(opened.paymentId);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(22_000);
    // A client earns none.
    const client = await createActiveUser(testApp);
    const plain = await openTopUp(client, 200);
    stripe.pay(plain.sessionId);
    await deliver(stripe.signedEvent('checkout.session.completed', plain.sessionId));
    expect((await paymentOf(plain.paymentId)).bonusPaymentId).toBeNull();
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(20_000);
  });

  it('refuses amounts outside the deposit limits with their catalogue code, before asking Stripe', async () => {
    const client = await createActiveUser(testApp);
    const sessionsBefore = stripe.sessions.size;
    for (const amount of [4.99, 5000.01]) {
      const refused = await topUp(testApp, client.accessToken, { amount });
      expect([refused.status, refused.body.error]).toEqual([400, 'error.deposit.amount.out.of.range']);
      expect(refused.body.details).toMatchObject({ minAmount: 5, maxAmount: 5000 });
    }
    expect((await topUp(testApp, client.accessToken, { amount: -5 })).status).toBe(400);
    expect(stripe.sessions.size).toBe(sessionsBefore);
  });

  it('lets only clients and ambassadors top up', async () => {
    expect((await testApp.http.post(TOP_UP).send({ amount: 10 })).status).toBe(401);
    expect((await topUp(testApp, admin, { amount: 10 })).status).toBe(403);
  });

  it('the janitor credits a top-up whose webhook was lost and closes an abandoned one', async () => {
    const client = await createActiveUser(testApp);
    const lost = await openTopUp(client, 25);
    const abandoned = await openTopUp(client, 15);
    stripe.pay(lost.sessionId);
    clock.set(new Date(clock.now().getTime() + (WINDOW_MINUTES + 1) * 60_000));
    await testApp.app.get(Schedules).sweepNow(CARD_JANITOR);
    expect((await paymentOf(lost.paymentId)).status).toBe('SUCCESS');
    expect((await paymentOf(abandoned.paymentId)).status).toBe('TIMEOUT');
    expect(stripe.session(abandoned.sessionId).status).toBe('expired');
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(2500);
    // The real webhook arriving late credits nothing more.
    expect((await deliver(stripe.signedEvent('checkout.session.completed', lost.sessionId))).body.credited).toBe(0);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(2500);
  });

  it('shows a credited top-up in the CSV export (provider STRIPE, no purchase) and in the activity log', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openTopUp(client, 35);
    stripe.pay(opened.sessionId);
    await deliver(stripe.signedEvent('checkout.session.completed', opened.sessionId));

    const exported = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ keyWord: client.email })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    expect(exported.status).toBe(200);
    const column = (key: string) => PAYMENTS_CSV_COLUMNS.findIndex((candidate) => candidate.key === key);
    const rows = parseStrictCsv((exported.body as string).replace(/^\uFEFF/, '')).slice(1);
    expect(rows.map((row) => [row[column('amount')], row[column('provider')], row[column('status')]])).toEqual([
      ['35.00', 'STRIPE', expect.stringMatching(/success/i)],
    ]);

    const audit = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [String(opened.paymentId)] });
    expect(audit.status).toBe(200);
    const sentences = (audit.body as Page<AuditLog>).content.map((entry) =>
      auditSentence(entry, 'en').replace(/[\u2066-\u2069]/g, ''),
    );
    expect(sentences).toEqual(
      expect.arrayContaining([
        expect.stringContaining('card checkout opened for $35.00'),
        expect.stringMatching(/card provider report: amount received \(empty\) → \$35\.00.*status Pending → Success/),
        expect.stringContaining('Deposit of $35.00, status Pending'),
      ]),
    );
  });

  it('keeps every read model equal to the replay', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });

  it('with the switch off in a second process: 409, no card offered, yet a checkout opened before is credited once', async () => {
    const client = await createActiveUser(testApp);
    const opened = await openTopUp(client, 50);
    stripe.pay(opened.sessionId);
    const event = stripe.signedEvent('checkout.session.completed', opened.sessionId);
    // Another API process on the same database, started by an operator who turned card balance payments off.
    const second = await startTestApp({
      clock,
      database: testApp.database,
      backgroundWork: false,
      env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example', CARD_BALANCE_PAYMENTS: '0' },
    });
    try {
      const dictionaries = await second.http.get('/api/dictionaries');
      expect(dictionaries.body).toMatchObject({ cardCheckoutAvailable: true, cardTopUpAvailable: false });
      const sessionsBefore = stripe.sessions.size;
      const refused = await topUp(second, client.accessToken, { amount: 50 });
      expect([refused.status, refused.body.error]).toEqual([409, 'error.card.balance.payments.off']);
      expect(stripe.sessions.size).toBe(sessionsBefore);
      // Both processes answer the same webhook at once: the money was taken, so it is credited, once.
      const answers = await Promise.all([deliver(event, second), deliver(event), deliver(event, second)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers.reduce((sum, answer) => sum + (answer.body as { credited: number }).credited, 0)).toBe(50);
      expect(await balanceMinorOf(testApp, client.userUuid)).toBe(5000);
      await expectReadModelsToEqualReplay(testApp);
    } finally {
      await second.app.close();
      await second.mailbox.stop();
    }
  });
});
