import type { Sweep, SweepPass } from '../jobs';
import { TELEGRAM_LONG_POLL_SECONDS, type TelegramBotApi } from './telegram-bot-api';
import type { TelegramUpdates } from './telegram-updates';

export const TELEGRAM_POLLING_SWEEP = 'telegram-polling';

/**
 * Long polling as a recurring job (docs/adr/0103-telegram-channel.md): the schedule's claim lets one process of the
 * fleet call `getUpdates` at a time (two at once make Telegram answer 409 Conflict). A pass waits for updates up to
 * the long-poll timeout and hands each to `TelegramUpdates` in order; a pass that found some asks for the next at once
 * and keeps the claim, and a failed pass is retried by the schedule's backoff. `stop()` cuts a waiting poll short.
 */
export class TelegramPollingSweep implements Sweep {
  readonly name = TELEGRAM_POLLING_SWEEP;
  private stopping = new AbortController();
  private webhookCleared = false;

  constructor(
    private readonly bot: TelegramBotApi,
    private readonly updates: TelegramUpdates,
    readonly intervalMs: number,
    private readonly longPollSeconds: number = TELEGRAM_LONG_POLL_SECONDS,
  ) {}

  async sweep(): Promise<SweepPass> {
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    // A webhook left from an earlier configuration makes getUpdates answer 409: polling mode removes it first.
    if (!this.webhookCleared) {
      await this.bot.deleteWebhook();
      this.webhookCleared = true;
    }
    let received;
    try {
      received = await this.bot.getUpdates(await this.updates.nextOffset(), this.longPollSeconds, this.stopping.signal);
    } catch (error) {
      if (this.stopping.signal.aborted) return { acted: 0, more: false };
      throw error;
    }
    let acted = 0;
    for (const update of received) if (await this.updates.handle(update)) acted += 1;
    return { acted, more: received.length > 0 };
  }

  /** Ends a poll in flight, so that a stopping process does not wait out the long poll. */
  stop(): void {
    this.stopping.abort();
  }
}
