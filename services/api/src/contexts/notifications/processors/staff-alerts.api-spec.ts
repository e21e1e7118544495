import type { Plan, Subscription } from '@kupa/proto';
import { ManualClock } from '../../../platform/clock';
import { Schedules } from '../../../platform/jobs';
import { eventually } from '../../../test-support/eventually';
import { FakeTelegram } from '../../../test-support/fake-telegram';
import { type ActiveUser, adminToken, createActiveUser } from '../../../test-support/identity-fixtures';
import { manualPayment } from '../../../test-support/ledger-query-fixtures';
import { linkTelegramChat } from '../../../test-support/telegram-fixtures';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import { StaffAlerts } from '../application/staff-alerts';
import { ProcessorLagAlertsSweep } from './processor-lag-alerts.sweep';

const STAFF_CHAT = -100500;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The token the test app gives the built-in streaming simulator (test-app.ts). */
const SIMULATOR_TOKEN = 'test-provisioning-token';

interface AlertRow {
  dedupe_key: string;
  kind: string;
  user_uuid: string | null;
  chat_id: string | null;
  sent_at: Date | null;
}

/**
 * Staff alerts (issue 34 part 5, docs/adr/0106-staff-alerts.md) end to end: each kind written by the code that knows
 * the fact, through the Telegram outbox and the app's own sender, to the fake Bot API. Each reaches the staff chat and
 * the linked staff member once, however often its writer runs; a client never gets one.
 */
describe('staff alerts over Telegram (ADR 0106)', () => {
  const clock = new ManualClock(new Date('2026-11-30T09:00:00Z'));
  let testApp: TestApp;
  let telegram: FakeTelegram;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;
  let plan: Plan;

  const link = async (user: ActiveUser, chatId: number): Promise<void> => {
    await linkTelegramChat(testApp, telegram, user.accessToken, { id: chatId, languageCode: 'en' });
  };
  const deposit = (user: ActiveUser, amount: number) =>
    manualPayment(testApp, admin, user.userUuid, amount, 'staff alerts fixture');
  const alertRows = (kind: string): Promise<AlertRow[]> =>
    testApp.dataSource.query(
      `SELECT dedupe_key, kind, user_uuid, chat_id, sent_at FROM telegram_outbox WHERE kind = $1 ORDER BY id`,
      [kind],
    );
  /** Every alert of the kind out of the outbox, then a moment for a second send that must not come. */
  const delivered = async (kind: string, count: number): Promise<AlertRow[]> => {
    const rows = await eventually(
      () => alertRows(kind),
      (found) => found.length === count && found.every((row) => row.sent_at !== null),
      `${count} ${kind} alerts sent`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    return rows;
  };
  const textsTo = (chatId: number, pattern: RegExp) =>
    telegram
      .messagesTo(chatId)
      .map((message) => message.text)
      .filter((text) => pattern.test(text));
  const checkpointsCaughtUp = async (names: string[]) => {
    const [{ head }]: Array<{ head: string }> = await testApp.dataSource.query(
      'SELECT coalesce(max(commit_position), 0)::text AS head FROM event_commits',
    );
    await eventually(
      async () =>
        (await testApp.dataSource.query('SELECT commit_position::text AS at FROM checkpoints WHERE name = ANY($1)', [
          names,
        ])) as Array<{ at: string }>,
      (rows) => rows.length === names.length && rows.every((row) => BigInt(row.at) >= BigInt(head)),
      `${names.join(', ')} caught up`,
    );
  };
  const subscriptionOf = (id: string): Promise<Subscription> =>
    eventually(
      async () =>
        (await testApp.http.get(`/api/subscriptions/${id}`).set('Authorization', `Bearer ${admin}`).expect(200))
          .body as Subscription,
      (subscription) => subscription.status !== 'PENDING',
      `subscription ${id} provisioned or refused`,
    );
  const buy = async (customer: ActiveUser): Promise<Subscription> => {
    const response = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: `staffalert${Math.floor(Math.random() * 1e9)}`, password: 'pass-1234' })
      .expect(201);
    return subscriptionOf((response.body as Subscription).id);
  };

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({
      clock,
      env: telegram.env({
        WORKER_POLL_INTERVAL_MS: '50',
        TELEGRAM_STAFF_CHAT_ID: String(STAFF_CHAT),
        TELEGRAM_STAFF_CHAT_LANGUAGE: 'en',
        STAFF_ALERT_LARGE_DEPOSIT_MINOR: '50000',
        PROVISIONING_RETRY_BASE_MS: '20',
        PROVISIONING_RETRY_MAX_MS: '40',
        PROVISIONING_RETRY_ATTEMPTS: '3',
        // The app's own lag sweep stays quiet here; the lag spec runs a sweep of its own on a processor that lags.
        PROCESSOR_LAG_ALERT_EVENTS: '100000000',
        PROCESSOR_LAG_ALERT_SECONDS: '100000000',
      }),
    });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    client = await createActiveUser(testApp, { language: 'he' });
    await link(manager, 7001);
    await link(client, 9001);
    const created = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: 'Staff alerts plan',
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      })
      .expect(201);
    plan = created.body as Plan;
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('tells a large deposit once to the staff chat in its language and to the linked manager in theirs, never to the client', async () => {
    await deposit(client, 499.99);
    await deposit(client, 600);
    const rows = await delivered('staff-large-deposit', 2);
    expect(rows.map((row) => [row.chat_id, row.user_uuid])).toEqual([
      [String(STAFF_CHAT), null],
      [null, manager.userUuid],
    ]);
    // The staff chat in its configured language (English here), the manager in their account's (Hebrew).
    expect(textsTo(7001, /^הפקדה גדולה/)).toEqual([expect.stringContaining('600.00')]);
    const [english] = textsTo(STAFF_CHAT, /^Large deposit/);
    expect(english).toContain('$600.00');
    expect(english).toContain(`${testApp.config.publicUrl}/admin/payments/`);
    expect(english).not.toContain(client.email);
    expect(english).not.toContain(client.password);
    expect(textsTo(STAFF_CHAT, /Large deposit/)).toHaveLength(1);
    // The client hears of their deposits, not of the staff's alert.
    expect(textsTo(9001, /הפקדה גדולה|Large deposit/)).toHaveLength(0);

    // The receipts processor handles the whole store again, as after a crash: nothing is told twice.
    await testApp.dataSource.query(`UPDATE checkpoints SET commit_position = 0 WHERE name = 'receipts'`);
    await checkpointsCaughtUp(['receipts']);
    await delivered('staff-large-deposit', 2);
    expect(textsTo(STAFF_CHAT, /Large deposit/)).toHaveLength(1);
    expect(textsTo(7001, /הפקדה גדולה/)).toHaveLength(1);
  });

  it('tells a provisioning that failed for good, without the service reason', async () => {
    await testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${SIMULATOR_TOKEN}`)
      .send({ operation: 'create', mode: 'login_taken', times: 1 })
      .expect(200);
    await deposit(client, 10);
    const refused = await buy(client);
    expect(refused.status).toBe('CANCELED');
    await delivered('staff-provisioning-failed', 2);
    const [english] = textsTo(STAFF_CHAT, /^Provisioning failed/);
    expect(english).toContain('the login is taken');
    expect(english).toContain('$10.00 went back to the balance');
    expect(english).toContain(`/admin/subscriptions/${refused.id}/show`);
    expect(english).not.toContain('LOGIN_TAKEN');
    expect(textsTo(7001, /ההקמה נכשלה/)).toHaveLength(1);
    expect(textsTo(9001, /ההקמה נכשלה|Provisioning failed/)).toHaveLength(0);
  });

  it('tells a renewal pass with a short balance once, with its counts; the same pass again tells nothing', async () => {
    const poor = await createActiveUser(testApp);
    await deposit(poor, 10);
    const active = await buy(poor);
    expect(active.status).toBe('ACTIVE');
    clock.set(new Date(new Date(active.endDate as string).getTime() - 3 * DAY_MS));
    const sweepNow = () => testApp.app.get(Schedules).sweepNow('subscription-renewals');
    await sweepNow();
    await delivered('staff-renewals-failed', 2);
    await sweepNow();
    await delivered('staff-renewals-failed', 2);
    expect(textsTo(STAFF_CHAT, /^Renewal sweep/)).toEqual([expect.stringContaining('0 renewed, 1 short of balance.')]);
    expect(textsTo(7001, /סבב החידושים/)).toHaveLength(1);
  });

  it('tells a lagging processor once per episode, and when it caught up', async () => {
    const name = 'staff-alerts-spec-processor';
    const sweep = new ProcessorLagAlertsSweep(testApp.dataSource, testApp.app.get(StaffAlerts), clock, () => [name], {
      events: 0,
      seconds: 100_000_000,
    });
    // No checkpoint: behind by every event stored.
    await sweep.sweep();
    await sweep.sweep();
    await delivered('staff-processor-lagging', 2);
    expect(textsTo(STAFF_CHAT, /^Processor staff-alerts-spec-processor is lagging/)).toHaveLength(1);
    expect(textsTo(7001, /staff-alerts-spec-processor מפגר/)).toHaveLength(1);

    await testApp.dataSource.query(
      `INSERT INTO checkpoints (name, commit_position)
       SELECT $1, coalesce(max(commit_position), 0) FROM event_commits`,
      [name],
    );
    await sweep.sweep();
    await sweep.sweep();
    await delivered('staff-processor-recovered', 2);
    expect(textsTo(STAFF_CHAT, /^Processor staff-alerts-spec-processor has caught up/)).toHaveLength(1);
    expect(textsTo(7001, /הדביק את הפער/)).toHaveLength(1);
    expect(textsTo(9001, /staff-alerts-spec-processor/)).toHaveLength(0);
  });

  it('leaves out a staff member who switched staff alerts off', async () => {
    const before = await testApp.http
      .get('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .expect(200);
    expect(before.body.channels['staff-alerts']).toEqual(['telegram']);
    const saved = await testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ channels: { 'staff-alerts': [] } })
      .expect(200);
    expect(saved.body.channels['staff-alerts']).toEqual([]);
    // A client's own answer, and staff reading a client's, never carry the staff-only kind.
    for (const [path, token] of [
      ['/api/users/me/notification-preferences', client.accessToken],
      [`/api/users/${client.userUuid}/notification-preferences`, manager.accessToken],
    ] as const) {
      const read = await testApp.http.get(path).set('Authorization', `Bearer ${token}`).expect(200);
      expect(Object.keys(read.body.channels)).not.toContain('staff-alerts');
    }
    await deposit(client, 700);
    const rows = await delivered('staff-large-deposit', 3);
    expect(rows[2]).toMatchObject({ chat_id: String(STAFF_CHAT), user_uuid: null });
    expect(textsTo(7001, /הפקדה גדולה/)).toHaveLength(1);
    expect(textsTo(STAFF_CHAT, /Large deposit/)).toHaveLength(2);
  });
});

/** Without `TELEGRAM_STAFF_CHAT_ID` nothing goes to a staff chat, and nothing breaks. */
describe('staff alerts without a staff chat (ADR 0106)', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({ env: telegram.env({ WORKER_POLL_INTERVAL_MS: '50' }) });
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('records no staff-chat message for a large deposit, and the deposit goes through', async () => {
    const client = await createActiveUser(testApp);
    await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ userUuid: client.userUuid, amount: 900, action: 'DEPOSIT', comment: 'no staff chat' })
      .expect(201);
    await eventually(
      () => testApp.dataSource.query(`SELECT 1 FROM receipts WHERE user_uuid = $1`, [client.userUuid]),
      (rows: unknown[]) => rows.length === 1,
      'the receipt issued',
    );
    const rows: unknown[] = await testApp.dataSource.query(
      `SELECT 1 FROM telegram_outbox WHERE chat_id IS NOT NULL OR kind LIKE 'staff-%'`,
    );
    expect(rows).toHaveLength(0);
  });
});
