import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The token the fake answers to; `TELEGRAM_BOT_TOKEN` of the specs that use it. */
export const FAKE_TELEGRAM_TOKEN = '424242:kupa-fake-telegram-bot-token';
export const FAKE_TELEGRAM_USERNAME = 'kupa_fake_bot';

export interface FakeTelegramUser {
  id: number;
  username?: string;
  firstName?: string;
  languageCode?: string;
}

/** A message the bot sent, as the fake recorded it. */
export interface FakeSentMessage {
  chatId: string;
  text: string;
  parseMode: string | null;
  replyMarkup: unknown;
  messageId: number;
  /** When the fake took it (`Date.now()`). */
  at: number;
}

/** A `sendMessage` the fake refused: 429 (too many requests), 403 (blocked), 5xx or a dropped connection (outage). */
export interface FakeRefusedSend {
  chatId: string;
  status: 429 | 403 | 502 | 'dropped';
  at: number;
}

/**
 * Telegram's limits, enforced as the real Bot API does: more than `perChatPerSecond` messages to one chat, or more
 * than `globalPerSecond` in all, within a second, is answered 429 with `retry_after`.
 */
export interface FakeTelegramLimits {
  perChatPerSecond: number;
  globalPerSecond: number;
  retryAfterSeconds: number;
}

interface WireUpdate {
  update_id: number;
  message: Record<string, unknown>;
}

interface Waiter {
  offset: number;
  resolve: (updates: WireUpdate[]) => void;
}

/**
 * A local stand-in for Telegram's Bot API that speaks its wire format (docs/adr/0103-telegram-channel.md):
 * `POST /bot<token>/<method>` with a JSON or form body, answered `{ok: true, result}` or
 * `{ok: false, error_code, description, parameters?}`. It keeps the updates people send, answers `getUpdates` by
 * offset with a long poll (409 for a second poll at once, or while a webhook is set), POSTs each update to a set
 * webhook with its secret header, and records every `sendMessage` per chat with when it took it, and every
 * `setMyCommands` menu. Test controls make the next sends answer 429 with `retry_after`, a chat answer 403 as a person
 * who blocked the bot, Telegram be down (502, or connections dropped), or enforce Telegram's rate limits (429 past one a
 * second per chat or the global rate), and every refusal is recorded. Test support only: no server build contains it,
 * as with `FakeStripe`.
 */
export class FakeTelegram {
  private readonly updates: WireUpdate[] = [];
  private nextUpdateId = 1000;
  private nextMessageId = 1;
  private confirmedOffset = 0;
  private waiter: Waiter | null = null;
  private webhook: { url: string; secret: string | null } | null = null;
  private tooManyRequests: { remaining: number; retryAfterSeconds: number } = { remaining: 0, retryAfterSeconds: 0 };
  private readonly blockedChats = new Set<string>();
  private outageMode: 'down' | 'unreachable' | null = null;
  private limits: FakeTelegramLimits | null = null;
  /** Sends taken in the last second, for the limits: all, and per chat. */
  private recentSends: Array<{ chatId: string; at: number }> = [];
  readonly sent: FakeSentMessage[] = [];
  readonly refused: FakeRefusedSend[] = [];
  /** Every method called, in order (`getUpdates`, `setWebhook`, …). */
  readonly calls: string[] = [];
  /** The command menus `setMyCommands` set, by language code (`''` for the default list). */
  readonly commandMenus = new Map<string, Array<{ command: string; description: string }>>();

  private constructor(
    private readonly server: Server,
    /** The longest a `getUpdates` is held open, whatever timeout it asked for: keeps specs quick. */
    private readonly longPollCapMs: number,
  ) {}

  static async start(options: { longPollCapMs?: number } = {}): Promise<FakeTelegram> {
    let fake: FakeTelegram | null = null;
    const server = createServer((request, response) => {
      void fake!.serve(request, response);
    });
    fake = new FakeTelegram(server, options.longPollCapMs ?? 300);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get apiRoot(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The variables that point the API at this fake. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      TELEGRAM_BOT_TOKEN: FAKE_TELEGRAM_TOKEN,
      TELEGRAM_API_ROOT: this.apiRoot,
      ...extra,
    };
  }

  async stop(): Promise<void> {
    this.waiter?.resolve([]);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get webhookInfo(): { url: string; secret: string | null } | null {
    return this.webhook;
  }

  /**
   * A person writes to the bot in a private chat (their user id is the chat id). In webhook mode the update is
   * POSTed at once and the webhook's status answered; otherwise it waits for `getUpdates`.
   */
  async userSays(user: FakeTelegramUser, text: string): Promise<{ updateId: number; webhookStatus: number | null }> {
    const updateId = this.nextUpdateId++;
    const from = {
      id: user.id,
      is_bot: false,
      first_name: user.firstName ?? 'Test',
      ...(user.username ? { username: user.username } : {}),
      ...(user.languageCode ? { language_code: user.languageCode } : {}),
    };
    const command = /^\/\S+/.exec(text);
    const update: WireUpdate = {
      update_id: updateId,
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: {
          id: user.id,
          type: 'private',
          first_name: from.first_name,
          ...(user.username ? { username: user.username } : {}),
        },
        from,
        text,
        ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
      },
    };
    if (this.webhook) return { updateId, webhookStatus: await this.postToWebhook(update) };
    this.updates.push(update);
    this.wakeWaiter();
    return { updateId, webhookStatus: null };
  }

  /** POSTs an update again, as Telegram repeats one a webhook did not acknowledge. */
  async redeliver(updateId: number): Promise<number> {
    const update = this.updates.find((candidate) => candidate.update_id === updateId);
    if (!update || !this.webhook) throw new Error(`No update ${updateId} to redeliver`);
    return this.postToWebhook(update);
  }

  /** The next `count` sends answer 429 with this `retry_after`. */
  failNextSends(count: number, retryAfterSeconds: number): void {
    this.tooManyRequests = { remaining: count, retryAfterSeconds };
  }

  /** Sends to this chat answer 403, as when the person blocked the bot. */
  blockBy(chatId: number | string): void {
    this.blockedChats.add(String(chatId));
  }

  /** The person unblocked the bot: sends to the chat are taken again. */
  unblock(chatId: number | string): void {
    this.blockedChats.delete(String(chatId));
  }

  /**
   * Telegram is down: `sendMessage` answers 502 (`down`) or the connection is dropped unanswered (`unreachable`),
   * until `outage(null)`.
   */
  outage(mode: 'down' | 'unreachable' | null): void {
    this.outageMode = mode;
  }

  /** Enforces Telegram's rate limits from now on (null: none, the default). */
  enforceLimits(limits: FakeTelegramLimits | null): void {
    this.limits = limits;
    this.recentSends = [];
  }

  /** How many sends were answered 429. */
  get tooManyRequestsAnswered(): number {
    return this.refused.filter((refusal) => refusal.status === 429).length;
  }

  messagesTo(chatId: number | string): FakeSentMessage[] {
    return this.sent.filter((message) => message.chatId === String(chatId));
  }

  /** Waits until the chat has received `count` messages, and answers them. */
  async waitForMessages(chatId: number | string, count = 1, timeoutMs = 5000): Promise<FakeSentMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const messages = this.messagesTo(chatId);
      if (messages.length >= count) return messages;
      if (Date.now() > deadline)
        throw new Error(`Chat ${chatId} received ${messages.length} of ${count} messages: ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Updates not yet confirmed by a later `getUpdates` offset. */
  get pendingUpdates(): number {
    return this.updates.filter((update) => update.update_id >= this.confirmedOffset).length;
  }

  private async postToWebhook(update: WireUpdate): Promise<number> {
    const webhook = this.webhook!;
    if (!this.updates.includes(update)) this.updates.push(update);
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(webhook.secret ? { 'x-telegram-bot-api-secret-token': webhook.secret } : {}),
      },
      body: JSON.stringify(update),
    });
    await response.arrayBuffer();
    return response.status;
  }

  private wakeWaiter(): void {
    if (!this.waiter) return;
    const ready = this.after(this.waiter.offset);
    if (ready.length === 0) return;
    const waiter = this.waiter;
    this.waiter = null;
    waiter.resolve(ready);
  }

  private after(offset: number): WireUpdate[] {
    return this.updates.filter((update) => update.update_id >= offset);
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(request.url ?? '/', 'http://fake').pathname);
    const params = await readParams(request);
    if (!match) return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (match[1] !== FAKE_TELEGRAM_TOKEN)
      return answer(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = match[2]!;
    this.calls.push(method);
    switch (method) {
      case 'getMe':
        return ok(response, { id: 424242, is_bot: true, first_name: 'Kupa', username: FAKE_TELEGRAM_USERNAME });
      case 'setWebhook':
        this.webhook = { url: String(params.url), secret: params.secret_token ? String(params.secret_token) : null };
        return ok(response, true);
      case 'deleteWebhook':
        this.webhook = null;
        return ok(response, true);
      case 'getWebhookInfo':
        return ok(response, { url: this.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 });
      case 'getUpdates':
        return this.getUpdates(response, params);
      case 'sendMessage':
        return this.sendMessage(response, params);
      case 'setMyCommands':
        return this.setMyCommands(response, params);
      default:
        return answer(response, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    }
  }

  private async getUpdates(response: ServerResponse, params: Record<string, unknown>): Promise<void> {
    if (this.webhook)
      return conflict(response, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook");
    if (this.waiter) return conflict(response, 'Conflict: terminated by other getUpdates request');
    const offset = Number(params.offset ?? 0);
    // An offset confirms every update before it: Telegram forgets them.
    if (offset > this.confirmedOffset) this.confirmedOffset = offset;
    const ready = this.after(offset);
    if (ready.length > 0) return ok(response, ready);
    const waitMs = Math.min(Number(params.timeout ?? 0) * 1000, this.longPollCapMs);
    const updates = await new Promise<WireUpdate[]>((resolve) => {
      this.waiter = { offset, resolve };
      setTimeout(() => {
        if (this.waiter?.resolve === resolve) this.waiter = null;
        resolve([]);
      }, waitMs);
    });
    if (!response.destroyed) ok(response, updates);
  }

  /** As Telegram checks it: 1–100 commands, each 1–32 of `a-z0-9_` with a description of 1–256 characters. */
  private setMyCommands(response: ServerResponse, params: Record<string, unknown>): void {
    const commands = (typeof params.commands === 'string' ? JSON.parse(params.commands) : params.commands) as unknown;
    const valid =
      Array.isArray(commands) &&
      commands.length >= 1 &&
      commands.length <= 100 &&
      commands.every(
        (entry: { command?: unknown; description?: unknown }) =>
          typeof entry.command === 'string' &&
          /^[a-z0-9_]{1,32}$/.test(entry.command) &&
          typeof entry.description === 'string' &&
          entry.description.length >= 1 &&
          entry.description.length <= 256,
      );
    if (!valid)
      return answer(response, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid commands' });
    const language = typeof params.language_code === 'string' ? params.language_code : '';
    this.commandMenus.set(language, commands as Array<{ command: string; description: string }>);
    ok(response, true);
  }

  /** The `retry_after` to answer when this send would break the enforced limits; null when it may go. */
  private overLimit(chatId: string, now: number): number | null {
    if (!this.limits) return null;
    this.recentSends = this.recentSends.filter((send) => now - send.at < 1000);
    const toChat = this.recentSends.filter((send) => send.chatId === chatId).length;
    if (toChat >= this.limits.perChatPerSecond || this.recentSends.length >= this.limits.globalPerSecond)
      return this.limits.retryAfterSeconds;
    return null;
  }

  private sendMessage(response: ServerResponse, params: Record<string, unknown>): void {
    const chatId = String(params.chat_id ?? '');
    const text = typeof params.text === 'string' ? params.text : '';
    const now = Date.now();
    if (this.outageMode === 'unreachable') {
      this.refused.push({ chatId, status: 'dropped', at: now });
      response.socket?.destroy();
      return;
    }
    if (this.outageMode === 'down') {
      this.refused.push({ chatId, status: 502, at: now });
      return answer(response, 502, { ok: false, error_code: 502, description: 'Bad Gateway' });
    }
    if (!chatId || !text)
      return answer(response, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
    const limited = this.overLimit(chatId, now);
    if (this.tooManyRequests.remaining > 0 || limited !== null) {
      if (limited === null) this.tooManyRequests.remaining -= 1;
      const retryAfter = limited ?? this.tooManyRequests.retryAfterSeconds;
      this.refused.push({ chatId, status: 429, at: now });
      return answer(response, 429, {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${retryAfter}`,
        parameters: { retry_after: retryAfter },
      });
    }
    if (this.blockedChats.has(chatId)) {
      this.refused.push({ chatId, status: 403, at: now });
      return answer(response, 403, {
        ok: false,
        error_code: 403,
        description: 'Forbidden: bot was blocked by the user',
      });
    }
    if (this.limits) this.recentSends.push({ chatId, at: now });
    const message: FakeSentMessage = {
      chatId,
      text,
      parseMode: typeof params.parse_mode === 'string' ? params.parse_mode : null,
      replyMarkup:
        typeof params.reply_markup === 'string' ? JSON.parse(params.reply_markup) : (params.reply_markup ?? null),
      messageId: this.nextMessageId++,
      at: now,
    };
    this.sent.push(message);
    ok(response, {
      message_id: message.messageId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: Number(chatId), type: 'private' },
      text,
    });
  }
}

/** The most messages one chat received within any second, over everything the fake took. */
export function maxPerChatPerSecond(sent: readonly FakeSentMessage[]): number {
  const byChat = new Map<string, number[]>();
  for (const message of sent) byChat.set(message.chatId, [...(byChat.get(message.chatId) ?? []), message.at]);
  let most = 0;
  for (const times of byChat.values()) {
    times.sort((a, b) => a - b);
    let first = 0;
    for (let last = 0; last < times.length; last += 1) {
      while (times[last]! - times[first]! >= 1000) first += 1;
      most = Math.max(most, last - first + 1);
    }
  }
  return most;
}

async function readParams(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const query = Object.fromEntries(new URL(request.url ?? '/', 'http://fake').searchParams);
  if (!body) return query;
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/json')) return { ...query, ...(JSON.parse(body) as Record<string, unknown>) };
  return { ...query, ...Object.fromEntries(new URLSearchParams(body)) };
}

function ok(response: ServerResponse, result: unknown): void {
  answer(response, 200, { ok: true, result });
}

function conflict(response: ServerResponse, description: string): void {
  answer(response, 409, { ok: false, error_code: 409, description });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
