import type { ClientNotification, NotificationPage, Page, Plan, SentNotification, Subscription } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { UserReader } from '../../../identity';
import { ReferralDiscounts } from '../../application/referral-discounts';
import {
  bought,
  createPlan,
  customerWithBalance as fundedCustomer,
  settled as settledIn,
} from '../../subscriptions.fixtures';
import { SUBSCRIPTION_RENEWALS_SWEEP } from '../subscription-renewals/subscription-renewals.sweep';
import { RENEWAL_REMINDERS_SWEEP, RenewalRemindersSweep } from './renewal-reminders.sweep';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The renewal reminders on a hand-moved clock (ADR 0083): the real sweep on the real database, the mails through the
 * real SMTP server in the test process, and the notifications through their routes.
 */
describe('renewal reminders (sweep), their mails and the notification routes', () => {
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

  beforeEach(() => {
    scenario += 1;
    clock.set(new Date(Date.UTC(2040 + scenario, 2, 1, 9, 0, 0)));
  });

  const at = (iso: string | null, offsetMs = 0) => clock.set(new Date(new Date(iso as string).getTime() + offsetMs));
  /** Two passes at once, each its own sweep object, as two processes would run them. */
  const twoSweepsAtOnce = async () => {
    const sweep = () =>
      new RenewalRemindersSweep(
        testApp.dataSource,
        testApp.app.get(ReferralDiscounts),
        testApp.app.get(UserReader),
        clock,
        [7, 3, 1],
      ).sweep();
    await Promise.all([sweep(), sweep()]);
  };
  const active = async (customer: ActiveUser, planId: string): Promise<Subscription> => {
    const subscription = await settledIn(testApp, (await bought(testApp, customer, planId)).id);
    expect(subscription.status).toBe('ACTIVE');
    return subscription;
  };
  const outbox = (customer: ActiveUser, kind: string) =>
    testApp.dataSource.query(
      `SELECT dedupe_key, language FROM mail_outbox WHERE recipient = $1 AND kind = $2 ORDER BY id`,
      [customer.email.toLowerCase(), `subscription.${kind}`],
    ) as Promise<Array<{ dedupe_key: string; language: string }>>;
  const mailsTo = (customer: ActiveUser, subject: RegExp) =>
    testApp.mailbox.messages.filter(
      (mail) => mail.to.includes(customer.email.toLowerCase()) && subject.test(mail.subject),
    );
  const delivered = (customer: ActiveUser, subject: RegExp, count: number) =>
    eventually(
      async () => mailsTo(customer, subject),
      (mails) => mails.length === count,
      `${count} mails "${subject}" to ${customer.email}`,
    );
  /**
   * A customer with a balance staff deposited, whose deposit is not a portal notice (`payments` by e-mail only,
   * ADR 0105): the reminders are the only notifications these specs count.
   */
  const customerWithBalance = async (
    app: TestApp,
    amount: number,
    options: Parameters<typeof fundedCustomer>[2],
  ): Promise<ActiveUser> => {
    const customer = await fundedCustomer(app, 0, options);
    await app.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ channels: { payments: ['email'] } })
      .expect(200);
    await app.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${await adminToken(app)}`)
      .send({ userUuid: customer.userUuid, amount, action: 'DEPOSIT', comment: 'fixture deposit' })
      .expect(201);
    return customer;
  };
  const myNotifications = async (customer: ActiveUser): Promise<NotificationPage> => {
    const response = await testApp.http
      .post('/api/notifications/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ page: 0, size: 20 });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.body as NotificationPage;
  };

  it('walks a short balance through 7, 3 and 1 days before the payment: one mail and one notification each', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'en' });
    const subscription = await active(customer, plan.id);
    const paymentDate = subscription.nextPaymentDate as string;

    at(paymentDate, -7 * DAY_MS - 1);
    await twoSweepsAtOnce();
    expect(await outbox(customer, 'renewal-short')).toEqual([]);

    for (const [index, days] of [7, 3, 1].entries()) {
      at(paymentDate, -days * DAY_MS);
      await twoSweepsAtOnce();
      await twoSweepsAtOnce();
      const rows = await outbox(customer, 'renewal-short');
      expect(rows).toHaveLength(index + 1);
      expect(rows[index]).toEqual({
        dedupe_key: `renewal-short:${subscription.id}:${new Date(paymentDate).getTime()}:${days}`,
        language: 'en',
      });
      const mails = await delivered(customer, /^Top up \$8\.00 to renew/, index + 1);
      expect(mails[index].text).toContain('http://kupa.test/payments/deposit?amountMinor=800');
      expect((await myNotifications(customer)).totalElements).toBe(index + 1);
    }

    const page = await myNotifications(customer);
    expect(page.unreadCount).toBe(3);
    expect(page.content.map((notification) => notification.kind)).toEqual([
      'renewal-short',
      'renewal-short',
      'renewal-short',
    ]);
    expect(page.content[0].params).toMatchObject({
      subscriptionId: subscription.id,
      missingMinor: 800,
      paymentDate,
      link: '/payments/deposit?amountMinor=800',
    });
    expect(page.content[0].createdAt > page.content[2].createdAt).toBe(true);

    // Reading: one, then another client's attempt at it (404), then all.
    const newest = page.content[0];
    const read = await testApp.http
      .post(`/api/notifications/${newest.id}/read`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(read.status).toBe(200);
    expect((read.body as ClientNotification).readAt).toBe(clock.now().toISOString());
    expect((await myNotifications(customer)).unreadCount).toBe(2);

    const stranger = await createActiveUser(testApp);
    const foreign = await testApp.http
      .post(`/api/notifications/${page.content[1].id}/read`)
      .set('Authorization', `Bearer ${stranger.accessToken}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: 'error.notification.not.found' });
    expect((await myNotifications(stranger)).totalElements).toBe(0);
    expect((await myNotifications(customer)).unreadCount).toBe(2);

    const notUuid = await testApp.http
      .post('/api/notifications/not-a-uuid/read')
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(notUuid.status).toBe(404);

    const all = await testApp.http
      .post('/api/notifications/read-all')
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ marked: 2 });
    expect((await myNotifications(customer)).unreadCount).toBe(0);

    // Staff see what was sent, read or not, with the mail's state; a client may not ask.
    const staff = await testApp.http
      .post(`/api/users/${customer.userUuid}/notifications/search`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({});
    expect(staff.status).toBe(200);
    const sent = staff.body as Page<SentNotification>;
    expect(sent.totalElements).toBe(3);
    expect(sent.content.every((notification) => notification.readAt !== null)).toBe(true);
    expect(sent.content.map((notification) => notification.mailState)).toEqual(['SENT', 'SENT', 'SENT']);
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const byManager = await testApp.http
      .post(`/api/users/${customer.userUuid}/notifications/search`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({});
    expect(byManager.status).toBe(200);
    const byClient = await testApp.http
      .post(`/api/users/${customer.userUuid}/notifications/search`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({});
    expect(byClient.status).toBe(403);
  });

  it('a top-up that covers the renewal stops the remaining reminders', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'en' });
    const subscription = await active(customer, plan.id);
    at(subscription.nextPaymentDate, -7 * DAY_MS);
    await twoSweepsAtOnce();
    expect(await outbox(customer, 'renewal-short')).toHaveLength(1);

    const deposit = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ userUuid: customer.userUuid, amount: 8, action: 'DEPOSIT', comment: 'top-up' });
    expect(deposit.status).toBe(201);
    for (const days of [3, 1]) {
      at(subscription.nextPaymentDate, -days * DAY_MS);
      await twoSweepsAtOnce();
    }
    expect(await outbox(customer, 'renewal-short')).toHaveLength(1);
  });

  it('follows the owner’s preferences: their lead days, and reminders in the portal only when e-mail is off', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'en' });
    const subscription = await active(customer, plan.id);
    const paymentDate = new Date(subscription.nextPaymentDate as string).getTime();
    const changed = await testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ leadDays: 10, channels: { 'renewal-reminders': ['portal'], payments: ['email'] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ leadDays: 10, channels: { 'renewal-reminders': ['portal'] } });

    // Eleven days ahead nothing is due; ten days ahead the owner's first reminder comes, in the portal only.
    at(subscription.nextPaymentDate, -11 * DAY_MS);
    await twoSweepsAtOnce();
    expect((await myNotifications(customer)).totalElements).toBe(0);
    at(subscription.nextPaymentDate, -10 * DAY_MS);
    await twoSweepsAtOnce();
    const page = await myNotifications(customer);
    expect(page.content.map((notification) => notification.kind)).toEqual(['renewal-short']);
    expect(await outbox(customer, 'renewal-short')).toEqual([]);

    // E-mail back on, portal off: the installation's smaller days still come, now as a mail and no notice.
    await testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ channels: { 'renewal-reminders': ['email'], payments: ['email'] } })
      .expect(200);
    at(subscription.nextPaymentDate, -7 * DAY_MS);
    await twoSweepsAtOnce();
    expect((await outbox(customer, 'renewal-short')).map((row) => row.dedupe_key)).toEqual([
      `renewal-short:${subscription.id}:${paymentDate}:7`,
    ]);
    expect((await myNotifications(customer)).totalElements).toBe(1);
  });

  it('a sweep that was down sends only the latest reminder day, never the missed ones', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'he' });
    const subscription = await active(customer, plan.id);
    at(subscription.nextPaymentDate, -2 * DAY_MS);
    await twoSweepsAtOnce();
    const rows = await outbox(customer, 'renewal-short');
    expect(rows.map((row) => row.dedupe_key)).toEqual([
      `renewal-short:${subscription.id}:${new Date(subscription.nextPaymentDate as string).getTime()}:3`,
    ]);
    expect(rows[0].language).toBe('he');
    const [mail] = await delivered(customer, /כדי לחדש את/, 1);
    expect(mail.text).toContain('http://kupa.test/payments/deposit?amountMinor=800');
  });

  it('a package that will not renew by itself: an ending reminder on each day in the owner’s language', async () => {
    const customer = await customerWithBalance(testApp, 30, { language: 'he' });
    const subscription = await active(customer, oneShotPlan.id);
    for (const [index, days] of [7, 3, 1].entries()) {
      at(subscription.endDate, -days * DAY_MS);
      await twoSweepsAtOnce();
      expect(await outbox(customer, 'ending')).toHaveLength(index + 1);
    }
    const mails = await delivered(customer, /מסתיימת ב-/, 3);
    expect(mails[0].text).toContain(`http://kupa.test/subscriptions/${subscription.id}`);
    const page = await myNotifications(customer);
    expect(page.content.map((notification) => notification.kind)).toEqual(['ending', 'ending', 'ending']);
    expect(page.content[0].params.link).toBe(`/subscriptions/${subscription.id}`);
  });

  it('a failed renewal: one renewal-failed reminder per period with the grace deadline, however many retries', async () => {
    const customer = await customerWithBalance(testApp, 12, { language: 'en' });
    const subscription = await active(customer, plan.id);
    const renewalsSweep = () => testApp.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
    const remindersSweep = () => testApp.app.get(Schedules).sweepNow(RENEWAL_REMINDERS_SWEEP);
    at(subscription.nextPaymentDate);
    await renewalsSweep();
    at(subscription.nextPaymentDate, DAY_MS);
    await renewalsSweep();
    await remindersSweep();
    expect(
      await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM events WHERE stream_id = $1 AND type = 'SubscriptionRenewalFailed'`,
        [`subscription-${subscription.id}`],
      ),
    ).toEqual([{ count: 2 }]);
    const failed = await eventually(
      () => outbox(customer, 'renewal-failed'),
      (rows) => rows.length > 0,
      'the renewal-failed mail',
    );
    expect(failed).toEqual([
      {
        dedupe_key: `renewal-failed:${subscription.id}:${new Date(subscription.endDate as string).getTime()}`,
        language: 'en',
      },
    ]);
    const [mail] = await delivered(customer, /^Top up to keep your/, 1);
    expect(mail.text).toContain('http://kupa.test/payments/deposit?amountMinor=800');
    const graceDeadline = new Date(new Date(subscription.endDate as string).getTime() + 3 * DAY_MS).toISOString();
    const page = await myNotifications(customer);
    // No renewal-short after the failure: the reminder days (1 before the moved payment date) are the failure's.
    expect(page.content.map((notification) => notification.kind)).toEqual(['renewal-failed']);
    expect(page.content[0].params).toMatchObject({ missingMinor: 800, graceDeadline });
  });
});
