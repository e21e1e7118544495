import type { TelegramLinkStatus, TelegramLinkTokenResponse } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { TELEGRAM_SECRET_HEADER } from '../../../../platform/telegram';
import { FakeTelegram, FAKE_TELEGRAM_USERNAME } from '../../../../test-support/fake-telegram';
import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

const tokenOf = (link: TelegramLinkTokenResponse) => new URL(link.deepLink).searchParams.get('start')!;

describe('Telegram linking and the bot (ADR 0103), polling the fake Bot API', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  const clock = new ManualClock(new Date('2026-11-30T09:00:00Z'));
  let dana: ActiveUser;
  let eli: ActiveUser;
  let manager: ActiveUser;

  const linkToken = async (user: ActiveUser): Promise<TelegramLinkTokenResponse> => {
    const response = await testApp.http
      .post('/api/users/me/telegram/link-token')
      .set('Authorization', `Bearer ${user.accessToken}`);
    expect(response.status).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.body as TelegramLinkTokenResponse;
  };
  const status = async (user: ActiveUser): Promise<TelegramLinkStatus> =>
    (await testApp.http.get('/api/users/me/telegram').set('Authorization', `Bearer ${user.accessToken}`))
      .body as TelegramLinkStatus;
  /** A person writes to the bot and the bot answers: the answer's text. */
  const say = async (chatId: number, text: string, languageCode = 'en'): Promise<string> => {
    const before = telegram.messagesTo(chatId).length;
    await telegram.userSays({ id: chatId, username: `user${chatId}`, languageCode }, text);
    return (await telegram.waitForMessages(chatId, before + 1))[before]!.text;
  };

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({ clock, env: telegram.env({ WORKER_POLL_INTERVAL_MS: '50' }) });
    dana = await createActiveUser(testApp, { language: 'he' });
    eli = await createActiveUser(testApp, { language: 'en' });
    manager = await createActiveUser(testApp, { role: 'MANAGER', language: 'en' });
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('links through a one-time deep link, confirms in the account language, and the profile shows it', async () => {
    expect(await status(dana)).toEqual({ configured: true, linked: false, username: null, linkedAt: null });
    const link = await linkToken(dana);
    expect(link.deepLink).toMatch(new RegExp(`^https://t\\.me/${FAKE_TELEGRAM_USERNAME}\\?start=[A-Za-z0-9_-]{32}$`));
    expect(new Date(link.expiresAt).getTime() - clock.now().getTime()).toBe(10 * 60_000);
    // The chat's Telegram speaks English; the account is Hebrew, and the confirmation follows the account.
    expect(await say(501, `/start ${tokenOf(link)}`, 'en')).toContain('קושר');
    expect(await status(dana)).toEqual({
      configured: true,
      linked: true,
      username: 'user501',
      linkedAt: clock.now().toISOString(),
    });
    // Stored hashed: the token itself is nowhere in the database.
    const stored = await testApp.dataSource.query('SELECT token_hash FROM telegram_link_tokens');
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link));
  });

  it('refuses a token used, expired or unknown in the chat language, and links nothing', async () => {
    const used = await linkToken(eli);
    expect(await say(601, `/start ${tokenOf(used)}`)).toContain('linked');
    expect(await say(602, `/start ${tokenOf(used)}`, 'he')).toContain('כבר נוצל');
    expect(await say(603, '/start not-a-token-we-issued')).toContain('not one we know');
    const late = await linkToken(eli);
    clock.advanceMs(10 * 60_000);
    expect(await say(604, `/start ${tokenOf(late)}`)).toContain('expired');
    const linked = await testApp.dataSource.query('SELECT chat_id FROM telegram_links WHERE user_uuid = $1', [
      eli.userUuid,
    ]);
    expect(linked).toEqual([{ chat_id: '601' }]);
  });

  it("binds a token to the account that asked: it links that account, never the chat's earlier one", async () => {
    // Chat 701 links to the manager (staff link too), then redeems Eli's token: the chat moves to Eli alone.
    // Staff accounts are created in Hebrew, the house's language.
    expect(await say(701, `/start ${tokenOf(await linkToken(manager))}`)).toContain('קושר');
    expect(await say(701, `/start ${tokenOf(await linkToken(eli))}`)).toContain('linked');
    expect((await status(manager)).linked).toBe(false);
    expect(await status(eli)).toMatchObject({ linked: true, username: 'user701' });
    // Another account's /stop from another chat unlinks nothing of Eli's.
    expect(await say(601, '/stop')).toContain('not linked');
    expect((await status(eli)).linked).toBe(true);
  });

  it('unlinks from the bot and from the portal, and records both in the activity log', async () => {
    expect(await say(701, '/stop')).toContain('unlinked');
    expect((await status(eli)).linked).toBe(false);
    expect(await say(701, '/help')).toContain('not linked');
    await say(502, `/start ${tokenOf(await linkToken(dana))}`);
    const unlink = await testApp.http
      .delete('/api/users/me/telegram')
      .set('Authorization', `Bearer ${dana.accessToken}`);
    expect(unlink.status).toBe(204);
    expect((await status(dana)).linked).toBe(false);
    const again = await testApp.http
      .delete('/api/users/me/telegram')
      .set('Authorization', `Bearer ${dana.accessToken}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('error.telegram.not.linked');
    const types: Array<{ type: string }> = await testApp.dataSource.query(
      'SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_version',
      [`telegram-${dana.userUuid}`],
    );
    expect(types.map((row) => row.type)).toEqual(['TelegramLinked', 'TelegramLinked', 'TelegramUnlinked']);
  });

  it('answers help and anything else in the account language, pointing to the portal, never a password', async () => {
    await say(801, `/start ${tokenOf(await linkToken(dana))}`);
    const help = await say(801, '/help');
    expect(help).toContain('/stop');
    expect(help).toContain(testApp.config.publicUrl);
    expect(await say(801, 'what is my password?')).toContain(testApp.config.publicUrl);
    for (const message of telegram.sent) expect(message.text).not.toContain(dana.password);
  });

  it('handles each polled update once and moves the offset past it', async () => {
    const { updateId } = await telegram.userSays({ id: 801, languageCode: 'he' }, '/help');
    await telegram.waitForMessages(801, telegram.messagesTo(801).length + 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const handled = await testApp.dataSource.query('SELECT update_id FROM telegram_updates WHERE update_id = $1', [
      updateId,
    ]);
    expect(handled).toHaveLength(1);
    expect(telegram.pendingUpdates).toBe(0);
  });
});

describe('Telegram webhook (ADR 0103)', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  const secret = 'kupa-webhook-secret-for-specs';

  beforeAll(async () => {
    telegram = await FakeTelegram.start();
    testApp = await startTestApp({
      env: telegram.env({
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_WEBHOOK_SECRET: secret,
        TELEGRAM_BOT_USERNAME: 'kupa_bot',
        PUBLIC_URL: 'https://kupa.example',
      }),
    });
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  const update = (updateId: number) => ({
    update_id: updateId,
    message: {
      message_id: 1,
      date: 1764493200,
      chat: { id: 901, type: 'private' },
      from: { id: 901, is_bot: false, first_name: 'Noa', language_code: 'en' },
      text: '/help',
    },
  });

  it('sets the webhook with its secret at start', () => {
    expect(telegram.webhookInfo).toEqual({ url: 'https://kupa.example/api/telegram/webhook', secret });
  });

  it('refuses a missing or wrong secret and handles nothing, and handles a repeated update once', async () => {
    for (const header of [undefined, 'wrong-secret-of-some-length']) {
      const request = testApp.rawHttp.post('/api/telegram/webhook');
      if (header) request.set(TELEGRAM_SECRET_HEADER, header);
      const refused = await request.send(update(1));
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('error.telegram.webhook.secret');
    }
    expect(telegram.messagesTo(901)).toHaveLength(0);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const accepted = await testApp.rawHttp
        .post('/api/telegram/webhook')
        .set(TELEGRAM_SECRET_HEADER, secret)
        .send(update(2));
      expect(accepted.status).toBe(200);
    }
    expect(telegram.messagesTo(901)).toHaveLength(1);
    expect(telegram.messagesTo(901)[0]!.text).toContain('not linked');
  });
});

describe('Telegram not configured', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('says so in the profile, refuses a link token, and answers no webhook', async () => {
    const user = await createActiveUser(testApp);
    const status = await testApp.http.get('/api/users/me/telegram').set('Authorization', `Bearer ${user.accessToken}`);
    expect(status.body).toEqual({ configured: false, linked: false, username: null, linkedAt: null });
    const token = await testApp.http
      .post('/api/users/me/telegram/link-token')
      .set('Authorization', `Bearer ${user.accessToken}`);
    expect(token.status).toBe(503);
    expect(token.body.error).toBe('error.telegram.not.configured');
    expect((await testApp.rawHttp.post('/api/telegram/webhook').send({ update_id: 1 })).status).toBe(404);
  });
});
