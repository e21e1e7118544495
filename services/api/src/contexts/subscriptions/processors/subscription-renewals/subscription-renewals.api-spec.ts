import type { Plan, Subscription } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import type { ActiveUser } from '../../../../test-support/identity-fixtures';
import type { ReceivedMail } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import {
  bought,
  countRows,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  settled as settledIn,
} from '../../subscriptions.fixtures';
import { SUBSCRIPTION_RENEWALS_SWEEP } from './subscription-renewals.sweep';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The renewal and expiry sweep and the subscription mails, on a hand-moved clock: each scenario starts at its own
 * instant (later than the previous one's), buys and lets the real provisioning (the built-in simulator) activate,
 * moves the clock and runs `sweepNow`, then reads the read model, the ledger's balance and the mails the real SMTP
 * server received.
 */
describe('subscription renewals and expiry (sweep) and their mails', () => {
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  let testApp: TestApp;
  let plan: Plan;
  let oneShotPlan: Plan;
  let scenario = 0;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1, isRecurrent: true });
    oneShotPlan = await createPlan(testApp, { price: 10, durationInMonths: 1, isRecurrent: false });
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Each scenario on its own stretch of time, a year after the last one, so earlier ones have long ended. */
  beforeEach(() => {
    scenario += 1;
    clock.set(new Date(Date.UTC(2026 + scenario, 2, 1, 9, 0, 0)));
  });

  const sweepNow = () => testApp.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
  const at = (iso: string | null, offsetMs = 0) => clock.set(new Date(new Date(iso as string).getTime() + offsetMs));
  const current = async (id: string): Promise<Subscription> => {
    const subscription = await testApp.app.get(SubscriptionReader).find(id);
    if (!subscription) throw new Error(`No subscription ${id}`);
    return subscription;
  };
  const balanceMinor = async (customer: ActiveUser) => {
    const rows: Array<{ balance_minor: string }> = await testApp.dataSource.query(
      'SELECT balance_minor::text AS balance_minor FROM ledger_user_balances WHERE user_uuid = $1',
      [customer.userUuid],
    );
    return Number(rows[0]?.balance_minor ?? 0);
  };
  const subscriptionPayments = (customer: ActiveUser) =>
    testApp.dataSource.query(
      `SELECT amount_minor::int AS amount, status FROM payments
        WHERE user_uuid = $1 AND type = 'SUBSCRIPTION_PAYMENT' ORDER BY payment_id`,
      [customer.userUuid],
    ) as Promise<Array<{ amount: number; status: string }>>;
  const eventCount = (subscriptionId: string, type: string) =>
    countRows(testApp, 'SELECT count(*) FROM events WHERE stream_id = $1 AND type = $2', [
      `subscription-${subscriptionId}`,
      type,
    ]);
  const mailTo = (customer: ActiveUser, subject: RegExp) =>
    testApp.mailbox.waitFor(customer.email, (mail) => subject.test(mail.subject));
  const mailsTo = (customer: ActiveUser, subject: RegExp) =>
    testApp.mailbox.messages.filter(
      (mail) => mail.to.includes(customer.email.toLowerCase()) && subject.test(mail.subject),
    );
  /** Bought, then left to the real provisioning (the built-in simulator) to activate, as in production. */
  const settled = (subscriptionId: string) => settledIn(testApp, subscriptionId);
  const activeSubscription = async (customer: ActiveUser, planId = plan.id) => {
    const subscription = await settled((await bought(testApp, customer, planId)).id);
    expect(subscription.status).toBe('ACTIVE');
    return subscription;
  };
  const linkOf = (mail: ReceivedMail, id: string) =>
    expect(mail.text).toContain(`http://kupa.test/subscriptions/${id}`);

  it('renews from the balance three days before the end, moves the end by a period and mails the owner', async () => {
    const customer = await customerWithBalance(testApp, 25, { language: 'en' });
    const active = await activeSubscription(customer);
    expect(await balanceMinor(customer)).toBe(1500);
    await mailTo(customer, /is ready$/);

    at(active.endDate, -3 * DAY_MS - 1);
    await sweepNow();
    expect((await current(active.id)).endDate).toBe(active.endDate);

    at(active.endDate, -3 * DAY_MS);
    await sweepNow();
    const renewed = await current(active.id);
    expect(renewed.status).toBe('ACTIVE');
    const end = new Date(active.endDate as string);
    expect(renewed.endDate).toBe(
      new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, end.getUTCDate(), 9)).toISOString(),
    );
    expect(renewed.nextPaymentDate).toBe(
      new Date(new Date(renewed.endDate as string).getTime() - 3 * DAY_MS).toISOString(),
    );
    expect(await balanceMinor(customer)).toBe(500);
    expect(await subscriptionPayments(customer)).toEqual([
      { amount: 1000, status: 'SUCCESS' },
      { amount: 1000, status: 'SUCCESS' },
    ]);
    const automatic = await testApp.dataSource.query(
      `SELECT data->>'automatic' AS automatic, metadata->'actor' AS actor FROM events
        WHERE stream_id = $1 AND type = 'SubscriptionRenewed'`,
      [`subscription-${active.id}`],
    );
    expect(automatic).toEqual([{ automatic: 'true', actor: expect.objectContaining({ name: 'SYSTEM' }) }]);

    const mail = await mailTo(customer, /is renewed$/);
    expect(mail.text).toContain('$10.00');
    linkOf(mail, active.id);

    // Another pass the same day finds nothing due for it: the next payment date moved with the end.
    await sweepNow();
    expect(await subscriptionPayments(customer)).toHaveLength(2);
  });

  it('a short balance: the failure with the amount missing and its mail, again the next day, then GRACE, then EXPIRED', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'he' });
    const active = await activeSubscription(customer);
    expect(await balanceMinor(customer)).toBe(200);

    at(active.endDate, -3 * DAY_MS);
    await sweepNow();
    let row = await current(active.id);
    expect(row.status).toBe('ACTIVE');
    expect(row.endDate).toBe(active.endDate);
    expect(row.nextPaymentDate).toBe(new Date(new Date(active.endDate as string).getTime() - 2 * DAY_MS).toISOString());
    const failures = await testApp.dataSource.query(
      `SELECT (data->>'missingMinor')::int AS missing FROM events WHERE stream_id = $1 AND type = 'SubscriptionRenewalFailed'`,
      [`subscription-${active.id}`],
    );
    expect(failures).toEqual([{ missing: 800 }]);
    const tooLow = await mailTo(customer, /להטעין יתרה/);
    expect(tooLow.text).toContain('8.00');
    expect(tooLow.text).toContain('http://kupa.test/payments/deposit?amountMinor=800');

    // The same day again: nothing new (the next attempt is tomorrow).
    await sweepNow();
    expect(await eventCount(active.id, 'SubscriptionRenewalFailed')).toBe(1);

    at(active.endDate, -2 * DAY_MS);
    await sweepNow();
    expect(await eventCount(active.id, 'SubscriptionRenewalFailed')).toBe(2);

    // The end: it lapses into the grace window (ADR 0081) instead of expiring; it expires when the window closes.
    at(active.endDate);
    await sweepNow();
    row = await current(active.id);
    expect(row.status).toBe('GRACE');
    expect(row.graceEndsAt).toBe(new Date(new Date(active.endDate as string).getTime() + 3 * DAY_MS).toISOString());
    at(row.graceEndsAt);
    await sweepNow();
    row = await current(active.id);
    expect(row.status).toBe('EXPIRED');
    expect(row.graceEndsAt).toBeNull();
    expect(row.nextPaymentDate).toBeNull();
    expect(await subscriptionPayments(customer)).toEqual([{ amount: 1000, status: 'SUCCESS' }]);
    expect(await balanceMinor(customer)).toBe(200);
    const expired = await mailTo(customer, /הסתיימה$/);
    linkOf(expired, active.id);
  });

  // The reminders before the end are the renewal reminders sweep's (renewal-reminders.api-spec.ts).
  it('a cancelled subscription is never charged, then CANCELED at the end', async () => {
    const customer = await customerWithBalance(testApp, 30, { language: 'en' });
    const active = await activeSubscription(customer);
    const cancelled = await testApp.http
      .delete(`/api/subscriptions/${active.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(cancelled.status).toBe(200);

    at(active.endDate, -3 * DAY_MS);
    await sweepNow();
    await sweepNow();
    expect(await subscriptionPayments(customer)).toHaveLength(1);
    at(active.endDate, -1 * DAY_MS);
    await sweepNow();

    at(active.endDate, 1);
    await sweepNow();
    expect((await current(active.id)).status).toBe('CANCELED');
    expect(await subscriptionPayments(customer)).toHaveLength(1);
    expect(await balanceMinor(customer)).toBe(2000);
    await mailTo(customer, /has ended$/);
  });

  it('an UNSUBSCRIBED subscription is never charged and expires; a package that is not recurrent too', async () => {
    const customer = await customerWithBalance(testApp, 30, { language: 'en' });
    const active = await activeSubscription(customer);
    const oneShot = await activeSubscription(customer, oneShotPlan.id);
    const deactivated = await testApp.http
      .post('/api/subscriptions/deactivate-recurrent')
      .query({ paymentPlanId: plan.id })
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(deactivated.status).toBeLessThan(300);
    expect((await current(active.id)).status).toBe('UNSUBSCRIBED');

    at(active.endDate, -3 * DAY_MS);
    await sweepNow();
    expect(await subscriptionPayments(customer)).toHaveLength(2);
    at(active.endDate, 1);
    await sweepNow();
    expect((await current(active.id)).status).toBe('EXPIRED');
    expect((await current(oneShot.id)).status).toBe('EXPIRED');
    expect(await subscriptionPayments(customer)).toHaveLength(2);
    expect(await balanceMinor(customer)).toBe(1000);
  });

  it('catches up in one sweepNow after the clock jumped past several due dates', async () => {
    const rich = await customerWithBalance(testApp, 40, { language: 'en' });
    const poor = await customerWithBalance(testApp, 10, { language: 'en' });
    const canceller = await customerWithBalance(testApp, 10, { language: 'en' });
    const renewing = await activeSubscription(rich);
    const short = await activeSubscription(poor);
    const cancelled = await activeSubscription(canceller);
    await testApp.http
      .delete(`/api/subscriptions/${cancelled.id}`)
      .set('Authorization', `Bearer ${canceller.accessToken}`)
      .expect(200);

    // Down for two months and ten days: the renewal date, the end and another month's dates all passed.
    at(renewing.endDate, 40 * DAY_MS);
    const now = clock.now();
    expect(await sweepNow()).toBeGreaterThanOrEqual(3);
    const renewed = await current(renewing.id);
    expect(renewed.status).toBe('ACTIVE');
    // One period from now: the days of the downtime are not sold, and no second period is charged.
    expect(new Date(renewed.endDate as string).getTime()).toBeGreaterThan(now.getTime() + 27 * DAY_MS);
    expect(await subscriptionPayments(rich)).toHaveLength(2);
    expect((await current(short.id)).status).toBe('EXPIRED');
    expect((await current(cancelled.id)).status).toBe('CANCELED');
    expect(await subscriptionPayments(poor)).toHaveLength(1);
    expect(await sweepNow()).toBe(0);
  });

  it('two passes at once charge once, and record a short balance once', async () => {
    const customer = await customerWithBalance(testApp, 20, { language: 'en' });
    const poor = await customerWithBalance(testApp, 10, { language: 'en' });
    const active = await activeSubscription(customer);
    const short = await activeSubscription(poor);

    at(active.endDate, -3 * DAY_MS);
    await Promise.all([sweepNow(), sweepNow(), sweepNow()]);
    expect(await subscriptionPayments(customer)).toHaveLength(2);
    expect(await balanceMinor(customer)).toBe(0);
    expect(await eventCount(active.id, 'SubscriptionRenewed')).toBe(1);
    expect(await eventCount(short.id, 'SubscriptionRenewalFailed')).toBe(1);
  });

  it('a purchase the streaming service refused gets the refunded mail, never the ended one', async () => {
    const customer = await customerWithBalance(testApp, 10, { language: 'en' });
    // The streaming service already has the login: provisioning cancels and refunds it.
    await testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', 'Bearer test-provisioning-token')
      .send({ operation: 'create', mode: 'login_taken', times: 1 })
      .expect(200);
    const pending = await bought(testApp, customer, plan.id);
    expect((await settled(pending.id)).status).toBe('CANCELED');
    const refunded = await mailTo(customer, /could not set up/);
    expect(refunded.text).toContain('already has an account with the login');
    expect(refunded.text).toContain('$10.00');
    linkOf(refunded, pending.id);
    expect(await balanceMinor(customer)).toBe(1000);
    clock.advanceMs(40 * DAY_MS);
    await sweepNow();
    expect((await current(pending.id)).status).toBe('CANCELED');
    expect(mailsTo(customer, /has ended/)).toHaveLength(0);
  });

  it('leaves the ledger and the read models consistent (kupa ledger verify)', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
