import type { Plan, Subscription } from '@kupa/proto';
import { systemContext } from '../../../../platform/auth';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { FakeStripe, type FakeTestCard } from '../../../../test-support/fake-stripe';
import type { ActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { CardRenewals } from '../../application/card-renewals';
import {
  activate,
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';
import { SUBSCRIPTION_RENEWALS_SWEEP } from './subscription-renewals.sweep';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Renewals charged to the saved card off-session (docs/adr/0086-renewals-charged-to-the-saved-card.md): the real
 * Stripe SDK against the local fake Stripe, real PostgreSQL, a hand-moved clock. Each scenario buys a package from the
 * balance, saves a test card through a setup checkout, chooses how the renewal is paid, moves the clock to the renewal
 * and runs the sweep.
 */
describe('renewals charged to the saved card (sweep, fake Stripe)', () => {
  const clock = new ManualClock(new Date('2031-03-01T09:00:00Z'));
  let testApp: TestApp;
  let stripe: FakeStripe;
  let plan: Plan;
  let scenario = 0;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      clock,
      env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example' },
      stoppedLoops: ['provisioning-jobs'],
    });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1, isRecurrent: true });
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  beforeEach(() => {
    scenario += 1;
    clock.set(new Date(Date.UTC(2031 + scenario, 2, 1, 9, 0, 0)));
  });

  const sweepNow = () => testApp.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
  const at = (iso: string | null, offsetMs = 0) => clock.set(new Date(new Date(iso as string).getTime() + offsetMs));
  const as = (user: ActiveUser) => `Bearer ${user.accessToken}`;
  const deliver = (event: { payload: string; signature: string }) =>
    testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature)
      .send(event.payload);

  const saveCard = async (user: ActiveUser, card: FakeTestCard) => {
    const response = await testApp.http.post('/api/users/me/saved-card/setup').set('Authorization', as(user));
    expect(response.status).toBe(201);
    const sessionId = (response.body as { url: string }).url.split('/').pop() as string;
    const method = stripe.completeSetup(sessionId, card);
    expect((await deliver(stripe.signedSetupEvent('checkout.session.completed', sessionId))).status).toBe(200);
    return method;
  };
  const chooseFunding = async (user: ActiveUser, subscriptionId: string, funding: string) => {
    const response = await testApp.http
      .put(`/api/subscriptions/${subscriptionId}/renewal-funding`)
      .set('Authorization', as(user))
      .send({ funding });
    expect(response.status).toBe(200);
  };
  /** A client with `balance` dollars who bought the $10 package, saved `card` and chose `funding`. */
  const subscriber = async (balance: number, card: FakeTestCard | null, funding: string) => {
    const customer = await customerWithBalance(testApp, balance, { language: 'en' });
    const subscription = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    if (card !== null) await saveCard(customer, card);
    if (funding !== 'BALANCE') await chooseFunding(customer, subscription.id, funding);
    return { customer, subscription };
  };
  const balanceMinor = async (customer: ActiveUser) => {
    const rows: Array<{ balance_minor: string }> = await testApp.dataSource.query(
      'SELECT balance_minor::text AS balance_minor FROM ledger_user_balances WHERE user_uuid = $1',
      [customer.userUuid],
    );
    return Number(rows[0]?.balance_minor ?? 0);
  };
  const paymentsOf = (customer: ActiveUser) =>
    testApp.dataSource.query(
      `SELECT type, method, amount_minor::int AS amount, status, card_provider AS provider FROM payments
        WHERE user_uuid = $1 ORDER BY payment_id`,
      [customer.userUuid],
    ) as Promise<Array<{ type: string; method: string; amount: number; status: string; provider: string | null }>>;
  const eventsOf = async (subscriptionId: string, prefix = 'SubscriptionCardRenewal') =>
    (
      (await testApp.dataSource.query(
        `SELECT type, data FROM events WHERE stream_id = $1 AND type LIKE $2 ORDER BY stream_version`,
        [`subscription-${subscriptionId}`, `${prefix}%`],
      )) as Array<{ type: string; data: Record<string, unknown> }>
    ).map((event): { type: string; [field: string]: unknown } => ({ type: event.type, ...event.data }));
  const renewalFailures = async (subscriptionId: string) =>
    (await eventsOf(subscriptionId, 'SubscriptionRenewalFailed')).length;
  const current = (id: string): Promise<Subscription> => read(testApp, id);
  const nextMonth = (iso: string | null) => {
    const end = new Date(iso as string);
    return new Date(
      Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, end.getUTCDate(), end.getUTCHours(), end.getUTCMinutes()),
    ).toISOString();
  };

  it('CARD: the whole price from the card, booked as a card deposit, and the renewal from the balance, once', async () => {
    const { customer, subscription } = await subscriber(15, 'visa', 'CARD');
    expect(await balanceMinor(customer)).toBe(500);
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();

    const [intent, ...more] = stripe.offSessionPaymentsOf(subscription.id);
    expect(more).toEqual([]);
    expect(intent).toMatchObject({ amount: 1000, currency: 'usd', status: 'succeeded' });
    const [attempt] = await eventsOf(subscription.id, 'SubscriptionCardRenewalStarted');
    expect(intent.metadata).toEqual({ subscriptionId: subscription.id, attemptId: attempt.attemptId });
    const charges = stripe.requests.filter((request) => request.path === '/v1/payment_intents');
    expect(charges.map((request) => request.idempotencyKey)).toEqual([
      `kupa-renewal-${subscription.id}-${String(attempt.attemptId)}`,
    ]);

    const renewed = await current(subscription.id);
    expect(renewed.endDate).toBe(nextMonth(subscription.endDate));
    expect(await balanceMinor(customer)).toBe(500);
    expect(await paymentsOf(customer)).toEqual([
      { type: 'DEPOSIT', method: 'MANUAL_TRANSFER', amount: 1500, status: 'SUCCESS', provider: null },
      { type: 'SUBSCRIPTION_PAYMENT', method: 'BALANCE', amount: 1000, status: 'SUCCESS', provider: null },
      { type: 'DEPOSIT', method: 'CARD', amount: 1000, status: 'SUCCESS', provider: 'STRIPE' },
      { type: 'SUBSCRIPTION_PAYMENT', method: 'BALANCE', amount: 1000, status: 'SUCCESS', provider: null },
    ]);
    expect((await eventsOf(subscription.id)).map((event) => event.type)).toEqual([
      'SubscriptionCardRenewalStarted',
      'SubscriptionCardRenewalSettled',
    ]);

    // Another pass, and the webhook Stripe sends for it (twice), change nothing.
    await sweepNow();
    expect((await deliver(stripe.signedPaymentIntentEvent('payment_intent.succeeded', intent.id))).status).toBe(200);
    expect((await deliver(stripe.signedPaymentIntentEvent('payment_intent.succeeded', intent.id))).status).toBe(200);
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    expect(await paymentsOf(customer)).toHaveLength(4);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });

  it('BALANCE_THEN_CARD: the card pays what the balance lacks; a balance that covers it charges no card', async () => {
    const short = await subscriber(13, 'visa', 'BALANCE_THEN_CARD');
    const covered = await subscriber(25, 'visa', 'BALANCE_THEN_CARD');
    at(short.subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(short.subscription.id).map((intent) => intent.amount)).toEqual([700]);
    expect((await current(short.subscription.id)).endDate).toBe(nextMonth(short.subscription.endDate));
    expect(await balanceMinor(short.customer)).toBe(0);

    expect(stripe.offSessionPaymentsOf(covered.subscription.id)).toEqual([]);
    expect((await current(covered.subscription.id)).endDate).toBe(nextMonth(covered.subscription.endDate));
    expect(await balanceMinor(covered.customer)).toBe(500);
    await expectLedgerVerifyOk(testApp);
  });

  it('declined: the failure and its reminder, the card not charged again that period, a newly saved card once', async () => {
    const { customer, subscription } = await subscriber(10, 'declined', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    expect(await eventsOf(subscription.id, 'SubscriptionCardRenewalFailed')).toEqual([
      expect.objectContaining({ outcome: 'DECLINED', code: 'card_declined', declineCode: 'generic_decline' }),
    ]);
    expect(await renewalFailures(subscription.id)).toBe(1);
    expect((await current(subscription.id)).endDate).toBe(subscription.endDate);
    // The reminder says the card was declined and links to the top-up of what is missing (a card top-up works).
    const mail = await testApp.mailbox.waitFor(customer.email, (received) => /^Top up to keep/.test(received.subject));
    expect(mail.text).toContain('Your saved card was declined for this renewal');
    expect(mail.text).toContain('https://kupa.example/payments/deposit?amountMinor=1000');
    const notified = await testApp.dataSource.query(
      `SELECT params FROM client_notifications WHERE user_uuid = $1 AND kind = 'renewal-failed'`,
      [customer.userUuid],
    );
    expect(notified).toEqual([
      { params: expect.objectContaining({ cardFailure: 'DECLINED', link: '/payments/deposit?amountMinor=1000' }) },
    ]);

    // The next day: the declined card is not charged again for this period.
    at(subscription.endDate, -2 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    expect(await renewalFailures(subscription.id)).toBe(2);

    // A newly saved card is tried, once, and pays.
    await saveCard(customer, 'visa');
    await chooseFunding(customer, subscription.id, 'CARD');
    at(subscription.endDate, -1 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id).map((intent) => intent.status)).toEqual([
      'requires_payment_method',
      'succeeded',
    ]);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    await expectLedgerVerifyOk(testApp);
  });

  it('requires_action: failed as the holder is wanted, the balance path records the failure', async () => {
    const { customer, subscription } = await subscriber(10, 'authentication', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    expect(await eventsOf(subscription.id, 'SubscriptionCardRenewalFailed')).toEqual([
      expect.objectContaining({ outcome: 'REQUIRES_ACTION', code: 'authentication_required' }),
    ]);
    expect(await renewalFailures(subscription.id)).toBe(1);
    const mail = await testApp.mailbox.waitFor(customer.email, (received) => /^Top up to keep/.test(received.subject));
    expect(mail.text).toContain('Your bank wants you to confirm the payment yourself');
  });

  it('pending: the subscription waits; the webhook settles it once, in any order and however often', async () => {
    const { customer, subscription } = await subscriber(10, 'processing', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    const [intent] = stripe.offSessionPaymentsOf(subscription.id);
    expect(intent.status).toBe('processing');
    expect((await eventsOf(subscription.id)).map((event) => event.type)).toEqual([
      'SubscriptionCardRenewalStarted',
      'SubscriptionCardRenewalPending',
    ]);
    // While it is pending nothing else happens to it: no new charge, no failure recorded.
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    expect(await renewalFailures(subscription.id)).toBe(0);

    // A webhook whose PaymentIntent still processes changes nothing; then the money arrives.
    expect((await deliver(stripe.signedPaymentIntentEvent('payment_intent.processing', intent.id))).status).toBe(200);
    stripe.settlePaymentIntent(intent.id, true);
    const succeeded = stripe.signedPaymentIntentEvent('payment_intent.succeeded', intent.id);
    const answer = await deliver(succeeded);
    expect(answer.status).toBe(200);
    expect(answer.body.handled).toBe(true);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    // The same event again, and a failure arriving after the money: nothing twice, nothing undone.
    expect((await deliver(succeeded)).status).toBe(200);
    expect((await deliver(stripe.signedPaymentIntentEvent('payment_intent.payment_failed', intent.id))).status).toBe(
      200,
    );
    expect((await eventsOf(subscription.id)).map((event) => event.type)).toEqual([
      'SubscriptionCardRenewalStarted',
      'SubscriptionCardRenewalPending',
      'SubscriptionCardRenewalSettled',
    ]);
    expect((await paymentsOf(customer)).filter((payment) => payment.method === 'CARD')).toHaveLength(1);
    await expectLedgerVerifyOk(testApp);
  });

  it('pending then failed, by the janitor when the webhook is lost: the balance path follows', async () => {
    const { subscription } = await subscriber(10, 'processing', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    const [intent] = stripe.offSessionPaymentsOf(subscription.id);
    stripe.settlePaymentIntent(intent.id, false);
    at(subscription.endDate, -3 * DAY_MS + 6 * 60_000);
    await sweepNow();
    expect(await eventsOf(subscription.id, 'SubscriptionCardRenewalFailed')).toEqual([
      expect.objectContaining({ outcome: 'DECLINED', code: 'card_declined', declineCode: 'insufficient_funds' }),
    ]);
    // A late webhook for it changes nothing; an unknown PaymentIntent is acknowledged and ignored.
    expect((await deliver(stripe.signedPaymentIntentEvent('payment_intent.payment_failed', intent.id))).status).toBe(
      200,
    );
    expect(await eventsOf(subscription.id, 'SubscriptionCardRenewalFailed')).toHaveLength(1);
    // The next pass takes the balance path: the failure is recorded.
    await sweepNow();
    expect(await renewalFailures(subscription.id)).toBe(1);
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
  });

  it('Stripe down between recording and charging: the next pass sends the same key, one PaymentIntent', async () => {
    const { subscription } = await subscriber(10, 'visa', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    stripe.failing = true;
    await sweepNow();
    stripe.failing = false;
    expect(await eventsOf(subscription.id)).toEqual([
      expect.objectContaining({ type: 'SubscriptionCardRenewalStarted' }),
    ]);
    expect(stripe.offSessionPaymentsOf(subscription.id)).toEqual([]);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    const keys = new Set(
      stripe.requests
        .filter((request) => request.path === '/v1/payment_intents' && request.form.metadata !== '')
        .filter((request) => request.form['metadata[subscriptionId]'] === subscription.id)
        .map((request) => request.idempotencyKey),
    );
    expect(keys.size).toBe(1);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    await expectLedgerVerifyOk(testApp);
  });

  it('a card replaced while its attempt waits for Stripe: the old card is refused, the new one tried next', async () => {
    const { customer, subscription } = await subscriber(10, 'visa', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    stripe.failing = true;
    await sweepNow();
    stripe.failing = false;
    // The open attempt names the first card; replacing it detaches that card at Stripe.
    await saveCard(customer, 'visa');
    await sweepNow();
    expect(await eventsOf(subscription.id, 'SubscriptionCardRenewalFailed')).toEqual([
      expect.objectContaining({ outcome: 'DECLINED', code: 'resource_missing' }),
    ]);
    expect(stripe.offSessionPaymentsOf(subscription.id)).toEqual([]);
    expect(await renewalFailures(subscription.id)).toBe(1);

    // At the next attempt the new card pays, once.
    at(subscription.endDate, -2 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id).map((intent) => intent.status)).toEqual(['succeeded']);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    await expectLedgerVerifyOk(testApp);
  });

  it('race: two sweep passes and two direct card renewals at once make exactly one PaymentIntent', async () => {
    const { customer, subscription } = await subscriber(10, 'visa', 'CARD');
    at(subscription.endDate, -3 * DAY_MS);
    const renewals = testApp.app.get(CardRenewals);
    const due = {
      subscriptionId: subscription.id,
      userUuid: customer.userUuid,
      funding: 'CARD' as const,
      priceMinor: 1000,
      balanceMinor: 0,
    };
    await Promise.all([
      sweepNow(),
      sweepNow(),
      renewals.renew(due, systemContext()),
      renewals.renew(due, systemContext()),
    ]);
    expect(stripe.offSessionPaymentsOf(subscription.id)).toHaveLength(1);
    expect((await eventsOf(subscription.id)).map((event) => event.type)).toEqual([
      'SubscriptionCardRenewalStarted',
      'SubscriptionCardRenewalSettled',
    ]);
    expect((await paymentsOf(customer)).filter((payment) => payment.method === 'CARD')).toHaveLength(1);
    expect((await current(subscription.id)).endDate).toBe(nextMonth(subscription.endDate));
    await expectLedgerVerifyOk(testApp);
  });

  it('a removed card is never charged: the renewal falls back to the balance', async () => {
    const { customer, subscription } = await subscriber(10, 'visa', 'CARD');
    const removed = await testApp.http.delete('/api/users/me/saved-card').set('Authorization', as(customer));
    expect(removed.status).toBe(204);
    expect((await current(subscription.id)).renewalFunding).toBe('BALANCE');
    at(subscription.endDate, -3 * DAY_MS);
    await sweepNow();
    expect(stripe.offSessionPaymentsOf(subscription.id)).toEqual([]);
    expect(await renewalFailures(subscription.id)).toBe(1);
  });

  /** Another API process on the same database and clock, as a second server of the fleet. */
  const secondApp = (env: Record<string, string> = {}) =>
    startTestApp({
      clock,
      database: testApp.database,
      backgroundWork: false,
      env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example', ...env },
    });

  // Closing an extra app on the shared database leaves the first one unable to answer, so both extra processes live in
  // one scenario, the last of the file, which checks everything before closing them.
  it('two more API processes on the same database: racing ones make one PaymentIntent; one with the switch off none', async () => {
    const racing = await subscriber(10, 'visa', 'CARD');
    const switchedOff = await subscriber(10, 'visa', 'CARD');
    at(racing.subscription.endDate, -3 * DAY_MS);
    const second = await secondApp();
    const off = await secondApp({ CARD_BALANCE_PAYMENTS: '0' });
    try {
      // With card balance payments off, that process's sweep charges no card: the balance path.
      await off.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
      expect(stripe.offSessionPaymentsOf(switchedOff.subscription.id)).toEqual([]);
      expect(await renewalFailures(switchedOff.subscription.id)).toBe(1);
      expect(await eventsOf(switchedOff.subscription.id)).toEqual([]);

      // The racing one was due too and is still short: both processes sweep and renew it by card at once.
      const due = {
        subscriptionId: racing.subscription.id,
        userUuid: racing.customer.userUuid,
        funding: 'CARD' as const,
        priceMinor: 1000,
        balanceMinor: 0,
      };
      at(racing.subscription.endDate, -2 * DAY_MS);
      await Promise.all([
        sweepNow(),
        second.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP),
        testApp.app.get(CardRenewals).renew(due, systemContext()),
        second.app.get(CardRenewals).renew(due, systemContext()),
        testApp.app.get(CardRenewals).renew(due, systemContext()),
        second.app.get(CardRenewals).renew(due, systemContext()),
      ]);
      expect(stripe.offSessionPaymentsOf(racing.subscription.id)).toHaveLength(1);
      expect((await paymentsOf(racing.customer)).filter((payment) => payment.method === 'CARD')).toHaveLength(1);
      expect((await current(racing.subscription.id)).endDate).toBe(nextMonth(racing.subscription.endDate));
      await expectLedgerVerifyOk(testApp);
    } finally {
      await second.app.close();
      await second.mailbox.stop();
      await off.app.close();
      await off.mailbox.stop();
    }
  });
});
