import type { Sweep, SweepPass } from '../jobs';
import type { TelegramUpdates } from './telegram-updates';

export const TELEGRAM_UPDATES_PRUNING_SWEEP = 'telegram-updates-pruning';
/** How often the handled update ids past their retention are deleted (once across the fleet). */
export const TELEGRAM_UPDATES_PRUNING_INTERVAL_MS = 60 * 60_000;
/** Rows removed per pass at most, so that one statement never deletes an unbounded backlog. */
export const TELEGRAM_UPDATES_PRUNING_BATCH_ROWS = 10_000;

/**
 * Keeps `telegram_updates` from growing forever: a recurring job of platform/jobs, as the rate limiter's ended windows
 * are swept, deleting the claims older than `TELEGRAM_RETENTION_DAYS` (the largest id always stays; ADR 0107).
 */
export class TelegramUpdatesPruningSweep implements Sweep {
  readonly name = TELEGRAM_UPDATES_PRUNING_SWEEP;
  readonly intervalMs = TELEGRAM_UPDATES_PRUNING_INTERVAL_MS;

  constructor(
    private readonly updates: TelegramUpdates,
    private readonly retentionDays: number,
  ) {}

  async sweep(): Promise<SweepPass> {
    const deleted = await this.updates.prune(this.retentionDays, TELEGRAM_UPDATES_PRUNING_BATCH_ROWS);
    return { acted: deleted, more: deleted === TELEGRAM_UPDATES_PRUNING_BATCH_ROWS };
  }
}
