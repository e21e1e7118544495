import type { CryptoDepositResponse, NotificationPage, Page, Payment, Plan, Subscription } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { eventually } from '../../../../test-support/eventually';
import { adminToken, type ActiveUser } from '../../../../test-support/identity-fixtures';
import { sandboxAct, sandboxInvoiceId } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import {
  bought,
  buy,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  settled as settledIn,
} from '../../subscriptions.fixtures';
import { SUBSCRIPTION_RENEWALS_SWEEP } from './subscription-renewals.sweep';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The token the test app gives the built-in simulator (test-app.ts). */
const SIMULATOR_TOKEN = 'test-provisioning-token';

/**
 * The grace window (ADR 0081) on a hand-moved clock, with the real provisioning against the built-in simulator and
 * its fault queue: a recurrent subscription whose renewal the balance cannot pay lapses into GRACE at its end (the
 * account disabled, the login still its own), comes back ACTIVE with the same login and account when renewed within
 * the window (the period from the payment), and ends EXPIRED, its login free, when the window passes.
 */
describe('the grace window after an unpaid automatic renewal', () => {
  const clock = new ManualClock(new Date('2031-03-01T09:00:00Z'));
  let testApp: TestApp;
  let plan: Plan;
  let scenario = 0;

  beforeAll(async () => {
    testApp = await startTestApp({
      clock,
      // Provisioning retries a few milliseconds apart: each nudge of the clock makes a failed call due again.
      env: { PROVISIONING_RETRY_BASE_MS: '20', PROVISIONING_RETRY_MAX_MS: '40', PROVISIONING_RETRY_ATTEMPTS: '5' },
    });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1, isRecurrent: true });
  });

  afterAll(async () => {
    await testApp.close();
  });

  beforeEach(() => {
    scenario += 1;
    clock.set(new Date(Date.UTC(2031 + scenario, 2, 1, 9, 0, 0)));
  });

  afterEach(async () => {
    await testApp.http.delete('/api/sandbox/streaming/faults').set('Authorization', `Bearer ${SIMULATOR_TOKEN}`);
  });

  const sweepNow = () => testApp.app.get(Schedules).sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
  const at = (iso: string | null, offsetMs = 0) => clock.set(new Date(new Date(iso as string).getTime() + offsetMs));
  const current = async (id: string): Promise<Subscription> => {
    const subscription = await testApp.app.get(SubscriptionReader).find(id);
    if (!subscription) throw new Error(`No subscription ${id}`);
    return subscription;
  };
  const queueFault = (operation: string, times: number) =>
    testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`)
      .send({ operation, mode: 'transient', times })
      .expect(200);
  /** The account at the simulator once it is so; the clock moves a second per look so that retries fall due. */
  const accountOnceItIs = (login: string, expected: { status: string; expiresAt?: string | null }) =>
    eventually(
      async () => {
        clock.advanceMs(1000);
        const response = await testApp.http
          .get(`/api/sandbox/streaming/v1/accounts/${login}`)
          .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`);
        return response.body as { login: string; status: string; expiresAt: string };
      },
      (account) =>
        account.status === expected.status &&
        (expected.expiresAt === undefined || account.expiresAt === expected.expiresAt),
      `the account ${login} is ${JSON.stringify(expected)} at the simulator`,
    );
  const deposit = (customer: ActiveUser, amount: number) =>
    adminToken(testApp).then((token) =>
      testApp.http
        .post('/api/payments')
        .set('Authorization', `Bearer ${token}`)
        .send({ userUuid: customer.userUuid, amount, action: 'DEPOSIT', comment: 'top-up' })
        .expect(201),
    );
  /** Bought with a balance that covers the first period and not the second, and running. */
  async function lapsingSubscription(): Promise<{ customer: ActiveUser; active: Subscription }> {
    const customer = await customerWithBalance(testApp, 12, { language: 'en' });
    const active = await settledIn(testApp, (await bought(testApp, customer, plan.id)).id);
    expect(active.status).toBe('ACTIVE');
    await accountOnceItIs(active.login, { status: 'ACTIVE', expiresAt: active.endDate });
    at(active.endDate, -3 * DAY_MS);
    await sweepNow();
    expect((await current(active.id)).status).toBe('ACTIVE');
    return { customer, active };
  }
  /** Each provisioning job of the subscription, oldest first: what it did and how many calls it took. */
  const jobsOf = (subscriptionId: string) =>
    testApp.dataSource.query(
      `SELECT operation, status, attempts FROM provisioning_jobs WHERE subscription_id = $1 ORDER BY seq`,
      [subscriptionId],
    ) as Promise<Array<{ operation: string; status: string; attempts: number }>>;
  const buyLogin = async (login: string) => {
    const other = await customerWithBalance(testApp, 10);
    return buy(testApp, other.accessToken, plan.id, { login, password: 'pass-1234' });
  };

  it('lapses into GRACE (account disabled, login kept) and comes back ACTIVE with the same account when renewed', async () => {
    const { customer, active } = await lapsingSubscription();

    // The disable call fails twice at the service; the job retries until the account is disabled.
    await queueFault('disable', 2);
    at(active.endDate);
    await sweepNow();
    const lapsed = await current(active.id);
    const graceEndsAt = new Date(new Date(active.endDate as string).getTime() + 3 * DAY_MS).toISOString();
    expect(lapsed).toMatchObject({ status: 'GRACE', graceEndsAt, login: active.login, endDate: active.endDate });
    await accountOnceItIs(active.login, { status: 'DISABLED' });

    // The client and staff see it, with the window's end, and staff find it by its status.
    const owner = await testApp.http
      .get(`/api/subscriptions/${active.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .expect(200);
    expect(owner.body).toMatchObject({ status: 'GRACE', graceEndsAt });
    const found = await testApp.http
      .post('/api/subscriptions/search')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ statuses: ['GRACE'], userUuid: customer.userUuid })
      .expect(200);
    expect((found.body as Page<Subscription>).content.map((row) => row.id)).toEqual([active.id]);

    // The login stays reserved: nobody else can buy it, though the service's account is disabled.
    const taken = await buyLogin(active.login);
    expect([taken.status, taken.body.error]).toEqual([409, 'error.login.already.exists']);

    // Neither cancelled nor switched off in the window: it is renewed or left to end.
    const cancel = await testApp.http
      .delete(`/api/subscriptions/${active.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect([cancel.status, cancel.body.error]).toEqual([409, 'error.subscription.in.grace']);
    // The paused account keeps its login and password as they were, as the portal offers neither: renew first.
    const renamed = await testApp.http
      .put(`/api/subscriptions/${active.id}/login`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: `${active.login}x` });
    expect([renamed.status, renamed.body.error]).toEqual([409, 'error.subscription.in.grace']);
    const repassed = await testApp.http
      .put(`/api/subscriptions/${active.id}/password`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ password: 'new-pass-1234' });
    expect([repassed.status, repassed.body.error]).toEqual([409, 'error.subscription.in.grace']);
    expect(await current(active.id)).toMatchObject({ login: active.login });

    // A day into the window: a top-up and the renew button. The period starts at the payment, no free days.
    await deposit(customer, 10);
    at(active.endDate, DAY_MS);
    const paidAt = clock.now();
    await queueFault('extend', 2);
    const renewed = await testApp.http
      .post('/api/subscriptions/renew/balance')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId: active.id })
      .expect(200);
    const newEnd = new Date(
      Date.UTC(paidAt.getUTCFullYear(), paidAt.getUTCMonth() + 1, paidAt.getUTCDate(), paidAt.getUTCHours()),
    ).toISOString();
    expect(renewed.body).toMatchObject({ status: 'ACTIVE', login: active.login, endDate: newEnd, graceEndsAt: null });
    await accountOnceItIs(active.login, { status: 'ACTIVE', expiresAt: newEnd });
    // Both calls met their injected faults and were retried to success, on the same account. The simulator answers
    // before the runner records the job as done, so the account's state can be seen a moment before the job's.
    const settledJobs = await eventually(
      () => jobsOf(active.id),
      (jobs) => jobs.every((job) => job.status !== 'PENDING'),
      `the provisioning jobs of ${active.id} are settled`,
    );
    expect(settledJobs.slice(-2)).toEqual([
      { operation: 'DISABLE_ACCOUNT', status: 'DONE', attempts: 3 },
      { operation: 'EXTEND_ACCOUNT', status: 'DONE', attempts: 3 },
    ]);

    // The window's end means nothing to it any more.
    at(graceEndsAt, DAY_MS);
    await sweepNow();
    expect((await current(active.id)).status).toBe('ACTIVE');
  });

  it('is renewed by the sweep itself after a top-up within the window', async () => {
    const { customer, active } = await lapsingSubscription();
    at(active.endDate);
    await sweepNow();
    expect((await current(active.id)).status).toBe('GRACE');
    // The next pass tries the balance again and records the shortfall with its next attempt, within the window.
    await sweepNow();
    const [failure] = await testApp.dataSource.query(
      `SELECT data->>'nextAttemptAt' AS next FROM events WHERE stream_id = $1 AND type = 'SubscriptionRenewalFailed'
        ORDER BY global_position DESC LIMIT 1`,
      [`subscription-${active.id}`],
    );
    expect(failure.next).toBe(new Date(clock.now().getTime() + DAY_MS).toISOString());

    await deposit(customer, 10);
    at(failure.next);
    await sweepNow();
    const renewed = await current(active.id);
    expect(renewed).toMatchObject({ status: 'ACTIVE', graceEndsAt: null, login: active.login });
    expect(new Date(renewed.endDate as string).getTime()).toBeGreaterThan(new Date(failure.next).getTime());
    await accountOnceItIs(active.login, { status: 'ACTIVE', expiresAt: renewed.endDate });
  });

  it('is renewed in the window by a crypto deposit-and-renew: same login, account back, period from the payment', async () => {
    const { customer, active } = await lapsingSubscription();
    at(active.endDate);
    await sweepNow();
    expect((await current(active.id)).status).toBe('GRACE');
    await accountOnceItIs(active.login, { status: 'DISABLED' });

    // Two days into the window the client pays the renewal by a crypto deposit at the sandbox cashier.
    at(active.endDate, 2 * DAY_MS);
    const opened = await testApp.http
      .post('/api/payments/crypto/deposit-and-renew-subscription')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ subscriptionId: active.id, method: 'CRYPTO_LTC' })
      .expect(201);
    const deposit = opened.body as CryptoDepositResponse;
    const paidAt = clock.now();
    expect((await sandboxAct(testApp, sandboxInvoiceId(deposit.invoiceUrl), 'pay')).status).toBeLessThan(400);
    const token = await adminToken(testApp);
    const payment = await eventually(
      async () =>
        (await testApp.http.get(`/api/payments/${deposit.paymentId}`).set('Authorization', `Bearer ${token}`))
          .body as Payment,
      (candidate) => candidate.purchase?.status !== undefined && candidate.purchase.status !== 'WAITING',
      'the deposit-and-renew decided',
    );
    // The deposit asked the renewal's price, and the renewal was paid from what arrived.
    expect(payment).toMatchObject({
      amount: 10,
      purchase: { kind: 'RENEW', status: 'DONE', subscriptionId: active.id },
    });

    const newEnd = new Date(
      Date.UTC(paidAt.getUTCFullYear(), paidAt.getUTCMonth() + 1, paidAt.getUTCDate(), paidAt.getUTCHours()),
    ).toISOString();
    expect(await current(active.id)).toMatchObject({
      status: 'ACTIVE',
      login: active.login,
      endDate: newEnd,
      graceEndsAt: null,
    });
    await accountOnceItIs(active.login, { status: 'ACTIVE', expiresAt: newEnd });
  });

  it('tells the client once that it is paused (mail + notification), however many sweeps and retries run', async () => {
    const { customer, active } = await lapsingSubscription();
    at(active.endDate);
    await Promise.all([sweepNow(), sweepNow()]);
    const lapsed = await current(active.id);
    expect(lapsed.status).toBe('GRACE');
    const occasionKey = `grace-started:${active.id}:${new Date(active.endDate as string).getTime()}`;

    const graceMails = () =>
      testApp.dataSource.query(
        `SELECT dedupe_key, language, payload FROM mail_outbox WHERE recipient = $1 AND kind = 'subscription.grace-started'`,
        [customer.email.toLowerCase()],
      ) as Promise<Array<{ dedupe_key: string; language: string; payload: { mail: Record<string, unknown> } }>>;
    const [mail] = await eventually(graceMails, (rows) => rows.length > 0, 'the grace-started mail');
    expect(mail).toMatchObject({ dedupe_key: occasionKey, language: 'en' });
    // The window's end as the lapse fixed it, the login kept, and what the balance lacks (price 10, balance 2).
    expect(mail.payload.mail).toMatchObject({
      login: active.login,
      missingMinor: 800,
      endDate: active.endDate,
      graceEndsAt: lapsed.graceEndsAt,
    });
    const sent = await eventually(
      async () =>
        testApp.mailbox.messages.filter(
          (message) => message.to.includes(customer.email.toLowerCase()) && /is paused/.test(message.subject),
        ),
      (messages) => messages.length === 1,
      'the grace-started mail delivered',
    );
    expect(sent[0].text).toContain('http://kupa.test/payments/deposit?amountMinor=800');
    expect(sent[0].text).toContain(`http://kupa.test/subscriptions/${active.id}`);
    expect(sent[0].text).toContain(active.login);

    const notifications = async () => {
      const response = await testApp.http
        .post('/api/notifications/search')
        .set('Authorization', `Bearer ${customer.accessToken}`)
        .send({ page: 0, size: 20 })
        .expect(200);
      return (response.body as NotificationPage).content.filter((row) => row.kind === 'grace-started');
    };
    const [notice] = await notifications();
    expect(notice.params).toMatchObject({
      subscriptionId: active.id,
      missingMinor: 800,
      graceDeadline: lapsed.graceEndsAt,
      link: '/payments/deposit?amountMinor=800',
    });

    // More sweeps in the window, and the mails processor handling the lapse again as after a crash: nothing new.
    at(active.endDate, DAY_MS);
    await Promise.all([sweepNow(), sweepNow()]);
    await testApp.dataSource.query(
      `UPDATE checkpoints SET commit_position = (
          SELECT c.commit_position - 1 FROM event_commits c JOIN events e
              ON e.global_position BETWEEN c.first_position AND c.last_position AND e.transaction_id = c.transaction_id
           WHERE e.stream_id = $1 AND e.type = 'SubscriptionLapsed')
        WHERE name = 'subscription-mails'`,
      [`subscription-${active.id}`],
    );
    const [{ head }] = await testApp.dataSource.query('SELECT max(commit_position)::text AS head FROM event_commits');
    await eventually(
      async () =>
        (await testApp.dataSource.query(
          `SELECT commit_position::text AS at FROM checkpoints WHERE name = 'subscription-mails'`,
        )) as Array<{ at: string }>,
      ([row]) => BigInt(row.at) >= BigInt(head),
      'the mails processor past the lapse again',
    );
    expect(await graceMails()).toHaveLength(1);
    expect(await notifications()).toHaveLength(1);
  });

  it('tells what was missing at the lapse, however late the mails processor gets to it (issue 31)', async () => {
    const { customer, active } = await lapsingSubscription();
    at(active.endDate);
    await sweepNow();
    expect((await current(active.id)).status).toBe('GRACE');
    const occasionKey = `grace-started:${active.id}:${new Date(active.endDate as string).getTime()}`;
    const graceMail = () =>
      testApp.dataSource.query(`SELECT payload FROM mail_outbox WHERE dedupe_key = $1`, [occasionKey]) as Promise<
        Array<{ payload: { mail: { missingMinor: number } } }>
      >;
    await eventually(graceMail, (rows) => rows.length === 1, 'the grace-started mail');

    // A top-up after the lapse (2 + 3 on the balance, the renewal still 10), then the processor handles the lapse as
    // if it came to it only now: its first reminder is gone, as though it had never run.
    await deposit(customer, 3);
    await testApp.dataSource.query(`DELETE FROM mail_outbox WHERE dedupe_key = $1`, [occasionKey]);
    await testApp.dataSource.query(`DELETE FROM client_notifications WHERE occasion_key = $1`, [occasionKey]);
    await testApp.dataSource.query(
      `UPDATE checkpoints SET commit_position = (
          SELECT c.commit_position - 1 FROM event_commits c JOIN events e
              ON e.global_position BETWEEN c.first_position AND c.last_position AND e.transaction_id = c.transaction_id
           WHERE e.stream_id = $1 AND e.type = 'SubscriptionLapsed')
        WHERE name = 'subscription-mails'`,
      [`subscription-${active.id}`],
    );
    const [mail] = await eventually(graceMail, (rows) => rows.length === 1, 'the grace-started mail again');
    expect(mail.payload.mail.missingMinor).toBe(800);
    const response = await testApp.http
      .post('/api/notifications/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ page: 0, size: 20 })
      .expect(200);
    const notices = (response.body as NotificationPage).content.filter((row) => row.kind === 'grace-started');
    expect(notices).toHaveLength(1);
    expect(notices[0].params).toMatchObject({ missingMinor: 800, link: '/payments/deposit?amountMinor=800' });
  });

  it('ends EXPIRED when the window passes unpaid, and its login is free again', async () => {
    const { customer, active } = await lapsingSubscription();
    at(active.endDate);
    await sweepNow();
    const lapsed = await current(active.id);
    expect(lapsed.status).toBe('GRACE');

    at(lapsed.graceEndsAt, -1);
    await sweepNow();
    expect((await current(active.id)).status).toBe('GRACE');
    at(lapsed.graceEndsAt);
    await sweepNow();
    expect(await current(active.id)).toMatchObject({ status: 'EXPIRED', graceEndsAt: null, nextPaymentDate: null });
    await accountOnceItIs(active.login, { status: 'DISABLED' });
    // The existing "expired" mail is the last word: it says the account was switched off and the login released.
    const expired = await eventually(
      async () =>
        testApp.mailbox.messages.filter(
          (message) => message.to.includes(customer.email.toLowerCase()) && /has ended/.test(message.subject),
        ),
      (messages) => messages.length === 1,
      'the expired mail delivered',
    );
    expect(expired[0].text).toContain(`switched off and the login ${active.login} released`);

    const takenOver = await buyLogin(active.login);
    expect(takenOver.status).toBe(201);
  });

  it('leaves the ledger and the read models consistent (kupa ledger verify)', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});
