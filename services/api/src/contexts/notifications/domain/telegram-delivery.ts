/**
 * The rules of Telegram delivery (docs/adr/0104-telegram-delivery.md), without a database or a clock of their own:
 * which waiting messages may go now (one person's in order, oldest first), and how fast they may go (the Bot API's
 * limits: one message a second per chat, a global rate, and a global pause when Telegram answers 429 `retry_after`).
 */

/** A message of the Telegram outbox not sent yet, as far as the order of delivery is concerned. */
export interface WaitingMessage {
  id: string;
  userUuid: string;
  createdAt: Date;
  /** When it may be tried: now, after a failure's backoff, or at the end of the person's quiet hours. */
  nextAttemptAt: Date;
}

/**
 * The messages to try now: for each person only the oldest message not sent yet, and only when it is due; a message
 * held back (waiting for its retry or for quiet hours to end) holds that person's later ones back, nobody else's.
 * Oldest first across people, so that a broadcast's thousands do not overtake a receipt recorded before it.
 */
export function nextInLine<T extends WaitingMessage>(waiting: readonly T[], now: Date): T[] {
  const heads = new Map<string, T>();
  for (const message of waiting) {
    const head = heads.get(message.userUuid);
    if (!head || olderThan(message, head)) heads.set(message.userUuid, message);
  }
  return [...heads.values()]
    .filter((head) => head.nextAttemptAt.getTime() <= now.getTime())
    .sort((a, b) => (olderThan(a, b) ? -1 : olderThan(b, a) ? 1 : 0));
}

function olderThan(a: WaitingMessage, b: WaitingMessage): boolean {
  const byTime = a.createdAt.getTime() - b.createdAt.getTime();
  if (byTime !== 0) return byTime < 0;
  // Ids are bigserial: among messages recorded in one instant, the one recorded first.
  return BigInt(a.id) < BigInt(b.id);
}

export interface TelegramLimits {
  /** Messages a second across every chat: Telegram documents about 30; we keep under it. */
  readonly messagesPerSecond: number;
  /** The least time between two messages to one chat: Telegram asks for no more than one a second. */
  readonly perChatIntervalMs: number;
}

/**
 * Paces sends to the Bot API's limits, in the sender's operational milliseconds (the process's monotonic time, not
 * the application's clock: a limit per second is real time). A send may start when the chat's last message is
 * `perChatIntervalMs` old, the previous send anywhere started `1000 / messagesPerSecond` ago, and no 429 pause runs.
 * One sender at a time keeps it (the `telegram-delivery` schedule's claim), so the budget is the fleet's.
 */
export class TelegramPacer {
  private readonly lastToChat = new Map<string, number>();
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(private readonly limits: TelegramLimits) {
    if (!(limits.messagesPerSecond > 0) || !(limits.perChatIntervalMs >= 0))
      throw new Error('Telegram limits must be a positive rate and a non-negative interval');
  }

  /** The earliest moment any message may start: the global spacing and a 429 pause. */
  globalReadyAt(): number {
    return Math.max(this.lastStart + 1000 / this.limits.messagesPerSecond, this.pausedUntil);
  }

  /** The earliest moment a message to this chat may start. */
  readyAt(chatId: string): number {
    const last = this.lastToChat.get(chatId);
    const chatReady = last === undefined ? Number.NEGATIVE_INFINITY : last + this.limits.perChatIntervalMs;
    return Math.max(chatReady, this.globalReadyAt());
  }

  /** The chats that may not have a message yet at `nowMs` (their last one is too recent); forgets the others. */
  busyChats(nowMs: number): string[] {
    const busy: string[] = [];
    for (const [chatId, last] of this.lastToChat) {
      if (nowMs - last < this.limits.perChatIntervalMs) busy.push(chatId);
      else this.lastToChat.delete(chatId);
    }
    return busy;
  }

  /** When the earliest busy chat frees up; null when none is busy. */
  nextChatFreeAt(nowMs: number): number | null {
    let earliest: number | null = null;
    for (const chatId of this.busyChats(nowMs)) {
      const free = this.lastToChat.get(chatId)! + this.limits.perChatIntervalMs;
      if (earliest === null || free < earliest) earliest = free;
    }
    return earliest;
  }

  /** A send to this chat starts now. */
  started(chatId: string, atMs: number): void {
    this.lastToChat.set(chatId, atMs);
    this.lastStart = Math.max(this.lastStart, atMs);
  }

  /** Telegram answered 429: nothing goes anywhere for `retryAfterSeconds` (its limit is the bot's, not the chat's). */
  pause(atMs: number, retryAfterSeconds: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, atMs + Math.max(0, retryAfterSeconds) * 1000);
  }
}
