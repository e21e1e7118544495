import { formatDollarsForIsolate, type Plan, type Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test-support/eventually';
import { FakeTelegram } from '../../../test-support/fake-telegram';
import { type ActiveUser, adminToken, createActiveUser } from '../../../test-support/identity-fixtures';
import { linkTelegramChat } from '../../../test-support/telegram-fixtures';
import { startTestApp, type TestApp } from '../../../test-support/test-app';

/** What a reader sees: the isolates that keep directions apart are invisible. */
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe("the bot's commands for a linked person (ADR 0103, amendment), polling the fake Bot API", () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  let admin: string;
  let eli: ActiveUser;
  let plan: Plan;
  let subscription: Subscription;
  const streamingPassword = `Stream-${randomUUID().slice(0, 8)}`;
  const login = `tv.bot${randomUUID().slice(0, 8)}`;

  const linkChat = async (user: ActiveUser, chatId: number): Promise<void> => {
    await linkTelegramChat(testApp, telegram, user.accessToken, {
      id: chatId,
      username: `user${chatId}`,
      languageCode: 'en',
    });
  };
  /** A person writes to the bot and the bot answers: the answer's text, as a reader sees it. */
  const say = async (chatId: number, text: string, languageCode = 'en'): Promise<string> => {
    const before = telegram.messagesTo(chatId).length;
    await telegram.userSays({ id: chatId, username: `user${chatId}`, languageCode }, text);
    return visible((await telegram.waitForMessages(chatId, before + 1))[before]!.text);
  };
  const payment = async (userUuid: string, amount: number, action: 'DEPOSIT' | 'WITHDRAW') => {
    const response = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid, amount, action, comment: 'bot spec' });
    expect(response.status).toBe(201);
    return response.body as { paymentId: number };
  };

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({ env: telegram.env({ WORKER_POLL_INTERVAL_MS: '50' }) });
    admin = await adminToken(testApp);
    eli = await createActiveUser(testApp, { language: 'en' });
    await payment(eli.userUuid, 50, 'DEPOSIT');
    const created = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Gold ${randomUUID().slice(0, 6)}`,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      });
    expect(created.status).toBe(201);
    plan = created.body as Plan;
    const bought = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${eli.accessToken}`)
      .send({ login, password: streamingPassword });
    expect(bought.status).toBe(201);
    // The built-in streaming simulator provisions it in the background: the bot lists it once it runs.
    subscription = await eventually(
      async () =>
        (
          await testApp.http
            .get(`/api/subscriptions/${(bought.body as Subscription).id}`)
            .set('Authorization', `Bearer ${admin}`)
        ).body as Subscription,
      (current) => current.status === 'ACTIVE',
      'the subscription is provisioned',
    );
    await linkChat(eli, 3101);
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('tells the balance the deposit and the purchase left, in the account language', async () => {
    expect(await say(3101, '/balance')).toBe(
      `Your balance: ${formatDollarsForIsolate(40, 'en')}. To top it up: /topup`,
    );
  });

  it('lists the running subscription with its package, end date and login, and never its password', async () => {
    const answer = await say(3101, '/subscriptions', 'he');
    const endDay = new Intl.DateTimeFormat('en-US', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(subscription.endDate!));
    expect(answer).toContain(`• ${plan.name} — Active, until ${endDay}. Login: ${login}`);
    expect(answer).toContain(`${testApp.config.publicUrl}/subscriptions`);
    expect(answer).not.toContain(streamingPassword);
  });

  it('gives the deposit page, the help, and the portal for anything else', async () => {
    expect(await say(3101, '/topup')).toContain(`${testApp.config.publicUrl}/payments/deposit`);
    const help = await say(3101, '/help');
    for (const command of ['/balance', '/subscriptions', '/topup', '/help', '/stop']) expect(help).toContain(command);
    const other = await say(3101, 'hello');
    expect(other).toContain('portal');
    expect(other).toContain(testApp.config.publicUrl);
  });

  it('answers a Hebrew client with a debt and no subscription in Hebrew', async () => {
    const dana = await createActiveUser(testApp, { language: 'he' });
    // The one way a balance goes below zero: a deposit paid out, then marked FAILED with the overdraft confirmed.
    const deposit = await payment(dana.userUuid, 7.5, 'DEPOSIT');
    await payment(dana.userUuid, 7.5, 'WITHDRAW');
    const reversed = await testApp.http
      .put(`/api/payments/${deposit.paymentId}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'FAILED', confirmNegativeBalance: true });
    expect(reversed.status).toBe(200);
    await linkChat(dana, 3102);
    const balance = await say(3102, '/balance', 'en');
    expect(balance).toContain('חוב');
    expect(balance).toContain(formatDollarsForIsolate(7.5, 'he'));
    expect(balance).toContain(`${testApp.config.publicUrl}/payments/deposit?amountMinor=750`);
    const none = await say(3102, '/subscriptions', 'en');
    expect(none).toContain('אין לך כרגע מנויים פעילים');
    expect(none).toContain(`${testApp.config.publicUrl}/packages`);
  });

  it('tells an unlinked chat to link first, whatever it asks', async () => {
    for (const command of ['/balance', '/subscriptions', '/topup'])
      expect(await say(3199, command)).toContain('not linked');
  });

  it("tells a staff account's chat that balances and subscriptions are a client's", async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    await linkChat(manager, 3103);
    for (const command of ['/balance', '/subscriptions']) {
      const answer = await say(3103, command);
      expect(answer).toMatch(/for clients|ללקוחות/);
      expect(answer).toContain(`${testApp.config.publicUrl}/admin`);
    }
  });

  it('set the command menu in Hebrew and, for everyone else, in English at start', async () => {
    await eventually(
      async () => [...telegram.commandMenus.keys()].sort(),
      (languages) => languages.length === 2,
      'both menus are set',
    );
    expect(telegram.commandMenus.get('he')!.map((entry) => entry.command)).toEqual([
      'balance',
      'subscriptions',
      'topup',
      'help',
      'stop',
    ]);
    expect(telegram.commandMenus.get('')![0]).toEqual({ command: 'balance', description: 'My balance' });
  });

  it('sent no message that holds a password', () => {
    expect(telegram.sent.length).toBeGreaterThan(10);
    for (const message of telegram.sent) {
      expect(message.text).not.toContain(streamingPassword);
      expect(message.text).not.toContain(eli.password);
      expect(message.parseMode).toBeNull();
    }
  });
});
