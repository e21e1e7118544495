import { Api, GrammyError, HttpError } from 'grammy';
import type { InlineKeyboardMarkup, LanguageCode, ParseMode, Update } from 'grammy/types';
import type { TelegramSettings } from '../config';

/** What became of one `sendMessage`, as the later delivery needs to tell it apart (docs/adr/0103). */
export type TelegramSendResult =
  | { outcome: 'sent'; messageId: number }
  /** 429: Telegram asks us to wait this long before the next message. */
  | { outcome: 'retry-after'; retryAfterSeconds: number }
  /** 403: the person blocked the bot (or deleted their account): nothing reaches this chat until they link again. */
  | { outcome: 'blocked'; description: string }
  /** Anything else: Telegram unreachable, a 5xx, a 400 for a message it refused. */
  | { outcome: 'failed'; description: string };

export interface TelegramMessage {
  text: string;
  parseMode?: ParseMode;
  replyMarkup?: InlineKeyboardMarkup;
}

/** How long Telegram holds a `getUpdates` open when nothing is there. */
export const TELEGRAM_LONG_POLL_SECONDS = 25;

/**
 * The Bot API through grammY's client (docs/adr/0103-telegram-channel.md): every call Kupa makes, and what its
 * answers mean as plain values. It knows no business; the notifications context decides what to say.
 */
export class TelegramBotApi {
  private readonly api: Api;
  private username: string | null;

  constructor(private readonly settings: TelegramSettings) {
    // A request waits a long poll's length and a margin more; grammY's client aborts it after that.
    this.api = new Api(settings.botToken, {
      apiRoot: settings.apiRoot,
      timeoutSeconds: TELEGRAM_LONG_POLL_SECONDS + 10,
    });
    this.username = settings.botUsername;
  }

  get mode(): TelegramSettings['mode'] {
    return this.settings.mode;
  }

  /** The bot's username: configured, or asked of Telegram once and kept. */
  async botUsername(): Promise<string> {
    if (this.username === null) {
      const me = await this.api.getMe();
      if (!me.username) throw new Error('Telegram names no username for this bot');
      this.username = me.username;
    }
    return this.username;
  }

  /** The link that opens the bot with `/start <payload>` (Telegram's deep linking). */
  async deepLink(payload: string): Promise<string> {
    return `https://t.me/${await this.botUsername()}?start=${encodeURIComponent(payload)}`;
  }

  async send(chatId: string | number, message: TelegramMessage): Promise<TelegramSendResult> {
    try {
      const sent = await this.api.sendMessage(chatId, message.text, {
        ...(message.parseMode ? { parse_mode: message.parseMode } : {}),
        ...(message.replyMarkup ? { reply_markup: message.replyMarkup } : {}),
        link_preview_options: { is_disabled: true },
      });
      return { outcome: 'sent', messageId: sent.message_id };
    } catch (error) {
      return sendFailure(error);
    }
  }

  /** Updates after `offset` (the last handled update's id + 1), held open up to `timeoutSeconds` when none wait. */
  async getUpdates(offset: number, timeoutSeconds: number, signal?: AbortSignal): Promise<Update[]> {
    // grammY types its signal as the abort-controller shim's; node-fetch accepts Node's own, which is the same shape.
    const shimSignal = signal as Parameters<Api['getUpdates']>[1];
    return this.api.getUpdates({ offset, timeout: timeoutSeconds, allowed_updates: ['message'] }, shimSignal);
  }

  async setWebhook(url: string, secretToken: string): Promise<void> {
    await this.api.setWebhook(url, { secret_token: secretToken, allowed_updates: ['message'] });
  }

  async deleteWebhook(): Promise<void> {
    await this.api.deleteWebhook();
  }

  /**
   * The command menu Telegram shows for users whose app speaks `languageCode` (two letters), or for everyone else
   * when it is null. Telegram keeps the last list set, so every process setting the same one is harmless.
   */
  async setMyCommands(
    commands: ReadonlyArray<{ command: string; description: string }>,
    languageCode: LanguageCode | null,
  ): Promise<void> {
    await this.api.setMyCommands([...commands], languageCode === null ? {} : { language_code: languageCode });
  }
}

function sendFailure(error: unknown): TelegramSendResult {
  if (error instanceof GrammyError) {
    if (error.error_code === 429)
      return { outcome: 'retry-after', retryAfterSeconds: error.parameters.retry_after ?? 1 };
    if (error.error_code === 403) return { outcome: 'blocked', description: error.description };
    return { outcome: 'failed', description: `${error.error_code} ${error.description}` };
  }
  if (error instanceof HttpError) return { outcome: 'failed', description: error.message };
  return { outcome: 'failed', description: error instanceof Error ? error.message : String(error) };
}
