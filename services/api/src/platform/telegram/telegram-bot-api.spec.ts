import { FAKE_TELEGRAM_TOKEN, FAKE_TELEGRAM_USERNAME, FakeTelegram } from '../../test-support/fake-telegram';
import type { TelegramSettings } from '../config';
import { TelegramBotApi } from './telegram-bot-api';

/** The adapter over grammY against the local fake of the Bot API, on the wire. */
describe('TelegramBotApi', () => {
  let telegram: FakeTelegram;
  let settings: TelegramSettings;

  beforeEach(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    settings = {
      botToken: FAKE_TELEGRAM_TOKEN,
      botUsername: null,
      mode: 'polling',
      webhookSecret: null,
      apiRoot: telegram.apiRoot,
      staffChatId: null,
      staffChatLanguage: 'he',
      messagesPerSecond: 25,
    };
  });

  afterEach(async () => {
    await telegram.stop();
  });

  it('asks Telegram for the username once when none is configured, and builds the deep link from it', async () => {
    const bot = new TelegramBotApi(settings);
    expect(await bot.deepLink('abc_DEF-1')).toBe(`https://t.me/${FAKE_TELEGRAM_USERNAME}?start=abc_DEF-1`);
    await bot.botUsername();
    expect(telegram.calls.filter((call) => call === 'getMe')).toHaveLength(1);
    const configured = new TelegramBotApi({ ...settings, botUsername: 'kupa_bot' });
    expect(await configured.deepLink('t')).toBe('https://t.me/kupa_bot?start=t');
  });

  it('tells a sent message, a 429 with its retry_after, a blocked chat and any other failure apart', async () => {
    const bot = new TelegramBotApi(settings);
    const sent = await bot.send(77, { text: '<b>Hi</b>', parseMode: 'HTML' });
    expect(sent).toEqual({ outcome: 'sent', messageId: expect.any(Number) });
    expect(telegram.messagesTo(77)).toEqual([expect.objectContaining({ text: '<b>Hi</b>', parseMode: 'HTML' })]);

    telegram.failNextSends(1, 7);
    expect(await bot.send(77, { text: 'again' })).toEqual({ outcome: 'retry-after', retryAfterSeconds: 7 });
    expect(await bot.send(77, { text: 'again' })).toMatchObject({ outcome: 'sent' });

    telegram.blockBy(78);
    expect(await bot.send(78, { text: 'hello' })).toEqual({
      outcome: 'blocked',
      description: 'Forbidden: bot was blocked by the user',
    });

    const wrongToken = new TelegramBotApi({ ...settings, botToken: '1:wrong-token-of-some-other-bot' });
    expect(await wrongToken.send(77, { text: 'x' })).toEqual({ outcome: 'failed', description: '401 Unauthorized' });
    const unreachable = new TelegramBotApi({ ...settings, apiRoot: 'http://127.0.0.1:9' });
    expect(await unreachable.send(77, { text: 'x' })).toMatchObject({ outcome: 'failed' });
  });

  it('reads updates after an offset, waits when none are there, and sets and removes the webhook', async () => {
    const bot = new TelegramBotApi(settings);
    const first = await telegram.userSays({ id: 5, languageCode: 'he' }, '/start token');
    const updates = await bot.getUpdates(0, 1);
    expect(updates.map((update) => update.update_id)).toEqual([first.updateId]);
    expect(updates[0]!.message).toMatchObject({ text: '/start token', from: { id: 5, language_code: 'he' } });
    expect(await bot.getUpdates(first.updateId + 1, 1)).toEqual([]);
    await bot.setWebhook('https://kupa.example/api/telegram/webhook', 'secret-of-sixteen-chars');
    expect(telegram.webhookInfo).toEqual({
      url: 'https://kupa.example/api/telegram/webhook',
      secret: 'secret-of-sixteen-chars',
    });
    await expect(bot.getUpdates(0, 1)).rejects.toThrow(/409/);
    await bot.deleteWebhook();
    expect(telegram.webhookInfo).toBeNull();
  });
});
