import { type Language } from '@kupa/proto';
import type { DataSource } from 'typeorm';
import type { Clock } from '../../../platform/clock';
import { type Backoff, backoffDelayMs, type Sweep, type SweepPass } from '../../../platform/jobs';
import type { TelegramOutcome } from '../../../platform/observability';
import type { TelegramMessage, TelegramSendResult } from '../../../platform/telegram';
import { mayGoAt } from '../domain/notification-preferences';
import { nextInLine, type TelegramLimits, TelegramPacer } from '../domain/telegram-delivery';
import { telegramNoticeText } from '../infrastructure/telegram-notice-texts';
import {
  dueHeads,
  holdUntil,
  markAttempt,
  markBlocked,
  markSent,
  skipChatPending,
  skipPending,
  type TelegramHead,
} from '../infrastructure/telegram-outbox';

export const TELEGRAM_DELIVERY_SWEEP = 'telegram-delivery';

/** One message a second per chat, as Telegram asks, with a margin for the network's jitter. */
export const TELEGRAM_PER_CHAT_INTERVAL_MS = 1100;
/** A message that failed waits this, doubling, before its next attempt; it is never given up. */
export const TELEGRAM_RETRY: Backoff = { baseMs: 5_000, maxMs: 15 * 60_000 };
/** After this many failures in a row the pass stops: Telegram is down, and each waiting person would fail alike. */
const OUTAGE_FAILURES = 3;
/** How long the sender then waits before trying anyone again, doubling while Telegram stays down. */
const OUTAGE_PAUSE: Backoff = { baseMs: 1_000, maxMs: 30_000 };
/** A pass ends after about this long, so that the schedule's lease is renewed and `stop()` is heard. */
const PASS_MS = 3_000;
/** Sends in flight at once: a slow answer from Telegram must not hold the global rate down. */
const IN_FLIGHT_MAX = 8;

export interface TelegramDeliveryOptions {
  limits: TelegramLimits;
  /** Makes the notices' portal links absolute. */
  publicUrl: string;
  /** How often the schedule looks for messages once the outbox is empty. */
  intervalMs: number;
  /** The persons' languages, for messages recorded without one. */
  languagesOf: (userUuids: readonly string[]) => Promise<Map<string, Language>>;
  /** Told how each attempt at a message ended (the metrics count them). */
  onOutcome?: (outcome: TelegramOutcome) => void;
  onError?: (error: unknown) => void;
  /** Operational milliseconds, for the Bot API's limits (the process's clock; specs may pass their own). */
  nowMs?: () => number;
}

/**
 * Sends the Telegram outbox (docs/adr/0104-telegram-delivery.md) as a recurring job of platform/jobs: the schedule's
 * claim lets one process of the fleet send at a time, so the Bot API's global limit is kept by one pacer rather than
 * split between replicas. A pass takes each person's oldest waiting message that is due (their later ones wait behind
 * it), oldest first, resolves the chat linked now, and sends at most `messagesPerSecond` a second and one a second per
 * chat. A 429 pauses every send for its `retry_after` and retries the same message; a 403 marks the link blocked and
 * skips the person's waiting messages; any other failure retries after a capped backoff, never given up; quiet hours
 * hold the message until they end. Marked sent after Telegram answers: a process that dies in between leaves the
 * message waiting, and the next claimer sends it again (at least once, never lost).
 */
export class TelegramDeliverySweep implements Sweep {
  readonly name: string = TELEGRAM_DELIVERY_SWEEP;
  readonly intervalMs: number;
  private readonly pacer: TelegramPacer;
  private readonly nowMs: () => number;
  private outageFailures = 0;
  private stopping = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bot: { send(chatId: string, message: TelegramMessage): Promise<TelegramSendResult> },
    private readonly clock: Clock,
    private readonly options: TelegramDeliveryOptions,
  ) {
    this.intervalMs = options.intervalMs;
    this.pacer = new TelegramPacer(options.limits);
    this.nowMs = options.nowMs ?? (() => performance.timeOrigin + performance.now());
  }

  /** Ends a pass between sends (the messages in flight finish), so that a stopping process does not wait it out. */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  async sweep(): Promise<SweepPass> {
    this.stopping = false;
    const passEnds = this.nowMs() + PASS_MS;
    const batch = Math.max(10, Math.ceil(this.options.limits.messagesPerSecond * (PASS_MS / 1000)));
    const inFlight = new Set<Promise<void>>();
    let acted = 0;
    let more = false;
    try {
      // The query already answers heads of line; the pure rule keeps them so and orders them.
      const due = await dueHeads(this.dataSource, this.clock.now(), this.pacer.busyChats(this.nowMs()), batch);
      const heads = nextInLine(
        due.map((head) => ({
          ...head,
          // A configured chat's messages (staff alerts, ADR 0106) keep their own line beside the persons'.
          userUuid: head.line,
          createdAt: head.created_at,
          nextAttemptAt: head.next_attempt_at,
        })),
        this.clock.now(),
      );
      if (heads.length === 0) {
        // Only chats that had a message a moment ago may have more: wait for the first to free up, then look again.
        const free = this.pacer.nextChatFreeAt(this.nowMs());
        if (free === null) return { acted: 0, more: false };
        await this.sleep(Math.min(free, passEnds) - this.nowMs());
        return { acted: 0, more: !this.stopping };
      }
      more = due.length >= batch;
      const unknown = heads.flatMap((head) =>
        head.language === null && head.user_uuid !== null ? [head.user_uuid] : [],
      );
      const languages = unknown.length > 0 ? await this.options.languagesOf(unknown) : new Map<string, Language>();
      for (const head of heads) {
        if (this.stopping) break;
        const ready = await this.readyToSend(head);
        if (ready === null) {
          acted += 1;
          continue;
        }
        const wait = this.pacer.readyAt(ready) - this.nowMs();
        if (wait > 0) {
          if (this.nowMs() + wait > passEnds) {
            // A 429's pause outlasts the pass: end it (the lease is renewed) and wait on in the next one.
            await this.sleep(passEnds - this.nowMs());
            more = true;
            break;
          }
          await this.sleep(wait);
          if (this.stopping) break;
        }
        this.pacer.started(ready, this.nowMs());
        const language = head.language ?? (head.user_uuid === null ? null : languages.get(head.user_uuid)) ?? 'he';
        const sending = this.send(head, ready, language).then((done) => {
          if (done) acted += 1;
        });
        const tracked = sending.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        if (inFlight.size >= IN_FLIGHT_MAX) await Promise.race(inFlight);
        if (this.outageFailures >= OUTAGE_FAILURES) {
          more = false;
          break;
        }
      }
    } finally {
      await Promise.all(inFlight);
    }
    return { acted, more: more && !this.stopping };
  }

  /**
   * The chat to send the head to now, or null when it does not go now: no chat linked (skipped), the chat blocked
   * the bot (skipped), or the person's quiet hours (held until they end).
   */
  private async readyToSend(head: TelegramHead): Promise<string | null> {
    const now = this.clock.now();
    // A configured chat has no link to lose and no quiet hours: an alert is for now (ADR 0106).
    if (head.user_uuid === null) return head.chat_id;
    if (head.chat_id === null || head.blocked_at !== null) {
      await skipPending(this.dataSource, head.user_uuid, head.chat_id === null ? 'UNLINKED' : 'BLOCKED', now);
      this.options.onOutcome?.('skipped');
      return null;
    }
    const release = mayGoAt('telegram', head.quiet_hours, now);
    if (release.getTime() > now.getTime()) {
      await holdUntil(this.dataSource, head.id, release);
      this.options.onOutcome?.('held');
      return null;
    }
    return head.chat_id;
  }

  /** Sends one message and records how it went; whether it was delivered. */
  private async send(head: TelegramHead, chatId: string, language: Language): Promise<boolean> {
    let result: TelegramSendResult;
    try {
      result = await this.bot.send(chatId, {
        text: telegramNoticeText(head.kind, head.params, language, this.options.publicUrl),
      });
    } catch (error) {
      result = { outcome: 'failed', description: error instanceof Error ? error.message : String(error) };
    }
    try {
      return await this.record(head, chatId, result);
    } catch (error) {
      // The database did not take the outcome: the message stays waiting and goes again (at least once).
      this.options.onError?.(error);
      return false;
    }
  }

  private async record(head: TelegramHead, chatId: string, result: TelegramSendResult): Promise<boolean> {
    this.options.onOutcome?.(result.outcome);
    switch (result.outcome) {
      case 'sent':
        this.outageFailures = 0;
        await markSent(this.dataSource, head.id, this.clock.now());
        return true;
      case 'retry-after':
        // Telegram's limit is the bot's: nothing goes anywhere until it passes; the same message goes first then.
        this.pacer.pause(this.nowMs(), result.retryAfterSeconds);
        await markAttempt(this.dataSource, head.id, `429 retry after ${result.retryAfterSeconds} s`, null);
        return false;
      case 'blocked':
        this.outageFailures = 0;
        if (head.user_uuid === null) {
          await skipChatPending(this.dataSource, chatId, this.clock.now());
          return true;
        }
        await markBlocked(this.dataSource, head.user_uuid, chatId, this.clock.now());
        return true;
      case 'failed': {
        this.outageFailures += 1;
        if (this.outageFailures >= OUTAGE_FAILURES)
          this.pacer.pause(
            this.nowMs(),
            backoffDelayMs(OUTAGE_PAUSE, this.outageFailures - OUTAGE_FAILURES + 1) / 1000,
          );
        const next = new Date(this.clock.now().getTime() + backoffDelayMs(TELEGRAM_RETRY, head.attempts + 1));
        await markAttempt(this.dataSource, head.id, result.description, next);
        this.options.onError?.(new Error(`Telegram message not sent, will retry: ${result.description}`));
        return false;
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
