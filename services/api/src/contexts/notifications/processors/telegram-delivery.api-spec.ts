import { ManualClock } from '../../../platform/clock';
import { Schedules } from '../../../platform/jobs';
import { TelegramBotApi } from '../../../platform/telegram';
import { eventually } from '../../../test-support/eventually';
import { FAKE_TELEGRAM_TOKEN, FakeTelegram } from '../../../test-support/fake-telegram';
import { type ActiveUser, adminToken, createActiveUser, signIn } from '../../../test-support/identity-fixtures';
import { manualPayment } from '../../../test-support/ledger-query-fixtures';
import { linkTelegramChat } from '../../../test-support/telegram-fixtures';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import { enqueueTelegramNotices, type TelegramNotice } from '../index';
import { readTelegramOutbox } from '../infrastructure/telegram-outbox';
import { TELEGRAM_DELIVERY_SWEEP, TelegramDeliverySweep } from './telegram-delivery.sweep';

interface OutboxRow {
  dedupe_key: string;
  kind: string;
  attempts: number;
  sent_at: Date | null;
  skipped_at: Date | null;
  skip_reason: string | null;
  last_error: string | null;
  next_attempt_at: Date;
}

const outboxOf = (testApp: TestApp, userUuid: string): Promise<OutboxRow[]> =>
  testApp.dataSource.query(
    `SELECT dedupe_key, kind, attempts, sent_at, skipped_at, skip_reason, last_error, next_attempt_at
       FROM telegram_outbox WHERE user_uuid = $1 ORDER BY id`,
    [userUuid],
  );

const record = (testApp: TestApp, notices: TelegramNotice[], at: Date) =>
  testApp.dataSource.transaction((manager) => enqueueTelegramNotices(manager, notices, at));

const notice = (user: ActiveUser, key: string, subject = key): TelegramNotice => ({
  dedupeKey: key,
  userUuid: user.userUuid,
  kind: 'announcement',
  params: { subject, body: `body of ${subject}`, link: '/notifications' },
});

/**
 * Telegram delivery through the outbox (issue 34 item 2, docs/adr/0104-telegram-delivery.md), with the app's own
 * sender running against the fake Bot API: once per event and channel, in order per person at most one a second per
 * chat, 429 `retry_after` honoured, an outage outlasted, 403 stopping the chat until it links again, quiet hours,
 * and the person's preferences.
 */
describe('Telegram delivery (ADR 0104)', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  const clock = new ManualClock(new Date('2026-11-30T09:00:00Z'));
  let admin: string;
  let dana: ActiveUser;
  let eli: ActiveUser;

  const link = async (user: ActiveUser, chatId: number): Promise<void> => {
    await linkTelegramChat(testApp, telegram, user.accessToken, { id: chatId, languageCode: 'en' });
  };
  const deposit = (user: ActiveUser, amount: number) =>
    manualPayment(testApp, admin, user.userUuid, amount, 'telegram fixture');
  const choose = async (user: ActiveUser, body: object): Promise<void> => {
    const response = await testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send(body);
    expect({ status: response.status, body: response.status === 200 ? null : response.body }).toEqual({
      status: 200,
      body: null,
    });
  };
  const receiptsOf = async (user: ActiveUser): Promise<number> => {
    const [{ count }]: Array<{ count: number }> = await testApp.dataSource.query(
      'SELECT count(*)::int AS count FROM receipts WHERE user_uuid = $1',
      [user.userUuid],
    );
    return count;
  };
  const settled = (user: ActiveUser) =>
    eventually(
      () => outboxOf(testApp, user.userUuid),
      (rows) => rows.every((row) => row.sent_at !== null || row.skipped_at !== null),
      `every Telegram message of ${user.email} sent or skipped`,
    );

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({ clock, env: telegram.env({ WORKER_POLL_INTERVAL_MS: '50' }) });
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp, { language: 'he' });
    eli = await createActiveUser(testApp, { language: 'en' });
    await link(dana, 9001);
    await link(eli, 9002);
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('tells a deposit once to the linked chat, in the account language, with the portal link and no password', async () => {
    const before = telegram.messagesTo(9001).length;
    await deposit(dana, 25);
    const [receipt] = (await telegram.waitForMessages(9001, before + 1)).slice(before);
    // A credited deposit is told as its arrival (ADR 0105), under the receipt's key: one message, not two.
    expect(receipt!.text).toContain('נכנסו ליתרה שלך');
    expect(receipt!.text).toContain(`${testApp.config.publicUrl}/payments/`);
    expect(receipt!.text).not.toContain(dana.password);
    const rows = await settled(dana);
    expect(rows.filter((row) => row.kind === 'deposit-credited')).toHaveLength(1);
    expect(rows.filter((row) => row.kind === 'receipt')).toHaveLength(0);
    // The mail went too, under the same key: one per event and channel.
    const [mail]: Array<{ dedupe_key: string }> = await testApp.dataSource.query(
      'SELECT dedupe_key FROM mail_outbox WHERE dedupe_key = $1',
      [rows[0]!.dedupe_key],
    );
    expect(mail?.dedupe_key).toMatch(/^receipt:\d+$/);
  });

  it('writes one row and sends one message when a writer records the same event twice (a retried batch)', async () => {
    const before = telegram.messagesTo(9002).length;
    await record(testApp, [notice(eli, 'event:retried-batch')], clock.now());
    await record(testApp, [notice(eli, 'event:retried-batch')], clock.now());
    await telegram.waitForMessages(9002, before + 1);
    await settled(eli);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.messagesTo(9002)).toHaveLength(before + 1);
    expect((await outboxOf(testApp, eli.userUuid)).filter((r) => r.dedupe_key === 'event:retried-batch')).toHaveLength(
      1,
    );
  });

  it("keeps a person's order and at most one message a second to a chat", async () => {
    const before = telegram.messagesTo(9002).length;
    const at = clock.now();
    await record(testApp, [notice(eli, 'order:1', 'first'), notice(eli, 'order:2', 'second')], at);
    await record(testApp, [notice(eli, 'order:3', 'third')], at);
    const sent = (await telegram.waitForMessages(9002, before + 3, 10_000)).slice(before);
    expect(sent.map((message) => message.text.split('\n')[0])).toEqual(['first', 'second', 'third']);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(sent[2]!.at - sent[1]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('waits the retry_after of a 429 before sending anything, then sends the same message', async () => {
    const before = telegram.messagesTo(9002).length;
    const refusedBefore = telegram.tooManyRequestsAnswered;
    telegram.failNextSends(1, 2);
    await record(testApp, [notice(eli, 'limited:1', 'after the pause')], clock.now());
    const [delivered] = (await telegram.waitForMessages(9002, before + 1, 10_000)).slice(before);
    expect(telegram.tooManyRequestsAnswered).toBe(refusedBefore + 1);
    const refusal = telegram.refused.filter((r) => r.status === 429).at(-1)!;
    expect(delivered!.text.startsWith('after the pause')).toBe(true);
    expect(delivered!.at - refusal.at).toBeGreaterThanOrEqual(2000);
    // Telegram took it before the sender marks it sent: wait for the mark.
    const row = await eventually(
      () => outboxOf(testApp, eli.userUuid).then((rows) => rows.find((r) => r.dedupe_key === 'limited:1')!),
      (candidate) => candidate.sent_at !== null,
      'the message marked sent',
    );
    expect(row).toMatchObject({ attempts: 2, last_error: null });
  });

  it('outlasts an outage: retries after its backoff until Telegram answers, and delivers once', async () => {
    const before = telegram.messagesTo(9002).length;
    telegram.outage('unreachable');
    await record(testApp, [notice(eli, 'outage:1', 'through the outage')], clock.now());
    await eventually(
      () => outboxOf(testApp, eli.userUuid).then((rows) => rows.find((r) => r.dedupe_key === 'outage:1')!),
      (row) => row.attempts >= 1 && row.last_error !== null,
      'a first failed attempt',
    );
    telegram.outage('down');
    clock.advanceMs(15 * 60_000);
    const failed = await eventually(
      () => outboxOf(testApp, eli.userUuid).then((rows) => rows.find((r) => r.dedupe_key === 'outage:1')!),
      (row) => row.attempts >= 2,
      'a second failed attempt',
    );
    expect(failed.sent_at).toBeNull();
    expect(failed.last_error).toContain('502');
    expect(failed.next_attempt_at.getTime()).toBeGreaterThan(clock.now().getTime());
    telegram.outage(null);
    clock.advanceMs(15 * 60_000);
    await telegram.waitForMessages(9002, before + 1, 10_000);
    await settled(eli);
    expect(
      telegram
        .messagesTo(9002)
        .slice(before)
        .map((m) => m.text.split('\n')[0]),
    ).toEqual(['through the outage']);
  });

  it('holds a message through quiet hours, Telegram only, and sends it when they end', async () => {
    const hhmm = (date: Date) => date.toISOString().slice(11, 16);
    const now = clock.now();
    await choose(eli, {
      quietHours: {
        from: hhmm(new Date(now.getTime() - 60 * 60_000)),
        to: hhmm(new Date(now.getTime() + 60 * 60_000)),
        timeZone: 'UTC',
      },
    });
    const before = telegram.messagesTo(9002).length;
    await record(testApp, [notice(eli, 'quiet:1', 'after quiet hours'), notice(eli, 'quiet:2', 'and after it')], now);
    const held = await eventually(
      () => outboxOf(testApp, eli.userUuid).then((rows) => rows.find((r) => r.dedupe_key === 'quiet:1')!),
      (row) => row.next_attempt_at.getTime() > now.getTime(),
      'the message held',
    );
    expect(held.attempts).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.messagesTo(9002)).toHaveLength(before);
    clock.advanceMs(61 * 60_000);
    const sent = (await telegram.waitForMessages(9002, before + 2, 10_000)).slice(before);
    expect(sent.map((m) => m.text.split('\n')[0])).toEqual(['after quiet hours', 'and after it']);
    await choose(eli, {});
  });

  it('respects the preferences: Telegram off for payments sends no receipt there, e-mail still goes', async () => {
    await choose(dana, { channels: { payments: ['email'] } });
    const receiptsBefore = await receiptsOf(dana);
    const rowsBefore = (await outboxOf(testApp, dana.userUuid)).length;
    await deposit(dana, 5);
    await eventually(
      () => receiptsOf(dana),
      (count) => count === receiptsBefore + 1,
      'the receipt issued',
    );
    expect(await outboxOf(testApp, dana.userUuid)).toHaveLength(rowsBefore);
    await choose(dana, {});
  });

  it('tells a sign-in from a new device in Telegram with the link that ends it', async () => {
    const before = telegram.messagesTo(9001).length;
    await signIn(testApp, dana.email, dana.password);
    const [told] = (await telegram.waitForMessages(9001, before + 1)).slice(before);
    expect(told!.text).toContain('כניסה חדשה');
    expect(told!.text).toContain(`${testApp.config.publicUrl}/end-session?token=`);
  });

  it('on 403 marks the chat blocked, skips what waits, stops until the person links again', async () => {
    const before = telegram.messagesTo(9002).length;
    telegram.blockBy(9002);
    await record(testApp, [notice(eli, 'blocked:1'), notice(eli, 'blocked:2')], clock.now());
    const rows = await settled(eli);
    expect(rows.filter((r) => r.dedupe_key.startsWith('blocked:')).map((r) => r.skip_reason)).toEqual([
      'BLOCKED',
      'BLOCKED',
    ]);
    const [linkRow]: Array<{ blocked_at: Date | null }> = await testApp.dataSource.query(
      'SELECT blocked_at FROM telegram_links WHERE user_uuid = $1',
      [eli.userUuid],
    );
    expect(linkRow!.blocked_at).not.toBeNull();
    // While blocked, the channels leave Telegram out: a receipt writes no Telegram row.
    const rowCount = (await outboxOf(testApp, eli.userUuid)).length;
    const receiptsBefore = await receiptsOf(eli);
    await deposit(eli, 3);
    await eventually(
      () => receiptsOf(eli),
      (count) => count === receiptsBefore + 1,
      'the receipt issued',
    );
    expect(await outboxOf(testApp, eli.userUuid)).toHaveLength(rowCount);
    // The person unblocks the bot and links again: messages reach the chat again.
    telegram.unblock(9002);
    await link(eli, 9002);
    const relinked = telegram.messagesTo(9002).length;
    await deposit(eli, 4);
    const [receipt] = (await telegram.waitForMessages(9002, relinked + 1)).slice(relinked);
    expect(receipt!.text).toContain('arrived on your Kupa balance');
    expect(
      telegram
        .messagesTo(9002)
        .slice(before)
        .some((m) => m.text.startsWith('blocked:')),
    ).toBe(false);
  });

  it('skips a message whose person unlinked before it went', async () => {
    await testApp.http.delete('/api/users/me/telegram').set('Authorization', `Bearer ${dana.accessToken}`).expect(204);
    await record(testApp, [notice(dana, 'unlinked:1')], clock.now());
    const rows = await settled(dana);
    expect(rows.find((r) => r.dedupe_key === 'unlinked:1')?.skip_reason).toBe('UNLINKED');
    expect(await readTelegramOutbox(testApp.dataSource, clock.now())).toEqual({ unsent: 0, oldestUnsentSeconds: 0 });
  });
});

describe('Telegram delivery across a sender that dies after sending (ADR 0104)', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  const clock = new ManualClock(new Date('2026-11-30T09:00:00Z'));

  beforeAll(async () => {
    telegram = await FakeTelegram.start();
    // No bot of the app's own, so no sender of its own: the two senders below are the fleet.
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('delivers through the next sender once the dead one’s lease lapses: sent again, never lost', async () => {
    const noa = await createActiveUser(testApp, { language: 'en' });
    // Linked by SQL: this app has no bot to link through.
    await testApp.dataSource.query(
      'INSERT INTO telegram_links (user_uuid, chat_id, username, linked_at) VALUES ($1, $2, $3, $4)',
      [noa.userUuid, '9100', 'noa', clock.now()],
    );
    await record(testApp, [notice(noa, 'crash:1', 'survives a crash')], clock.now());
    const bot = new TelegramBotApi({
      botToken: FAKE_TELEGRAM_TOKEN,
      botUsername: null,
      mode: 'polling',
      webhookSecret: null,
      apiRoot: telegram.apiRoot,
      staffChatId: null,
      staffChatLanguage: 'he',
      messagesPerSecond: 25,
    });
    // The first sender's process dies once Telegram took the message, before it could mark it sent.
    let revive!: () => void;
    const dead = new Promise<void>((resolve) => (revive = resolve));
    const dying = {
      send: async (chatId: string, message: { text: string }) => {
        const result = await bot.send(chatId, message);
        await dead;
        return result;
      },
    };
    const options = {
      limits: { messagesPerSecond: 25, perChatIntervalMs: 1100 },
      publicUrl: testApp.config.publicUrl,
      intervalMs: 1000,
      languagesOf: async () => new Map(),
    };
    const periods = new ManualClock(new Date('2026-11-30T09:00:00Z'));
    const first = new Schedules(testApp.dataSource, periods, { pollIntervalMs: 50, leaseMs: 60_000 });
    const second = new Schedules(testApp.dataSource, periods, { pollIntervalMs: 50, leaseMs: 60_000 });
    first.register(new TelegramDeliverySweep(testApp.dataSource, dying, clock, options));
    second.register(new TelegramDeliverySweep(testApp.dataSource, bot, clock, options));

    const dyingRun = first.runIfDue(TELEGRAM_DELIVERY_SWEEP);
    await telegram.waitForMessages(9100, 1);
    // The run's claim holds while its lease lives: the other sender does not send meanwhile.
    expect((await second.runIfDue(TELEGRAM_DELIVERY_SWEEP)).ran).toBe(false);
    expect((await outboxOf(testApp, noa.userUuid))[0]!.sent_at).toBeNull();
    periods.advanceMs(60_001);
    expect((await second.runIfDue(TELEGRAM_DELIVERY_SWEEP)).ran).toBe(true);
    // At least once: Telegram has it twice, and the outbox has it sent.
    expect(telegram.messagesTo(9100).map((m) => m.text.split('\n')[0])).toEqual([
      'survives a crash',
      'survives a crash',
    ]);
    expect((await outboxOf(testApp, noa.userUuid))[0]!.sent_at).not.toBeNull();
    revive();
    await dyingRun;
    expect(telegram.messagesTo(9100)).toHaveLength(2);
    expect(await readTelegramOutbox(testApp.dataSource, clock.now())).toEqual({ unsent: 0, oldestUnsentSeconds: 0 });
  });
});
