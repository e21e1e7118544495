import type { DataSource } from 'typeorm';
import type { Clock } from '../../../platform/clock';
import type { Sweep, SweepPass } from '../../../platform/jobs';
import { pruneTelegramOutbox } from '../infrastructure/telegram-outbox';

export const TELEGRAM_OUTBOX_PRUNING_SWEEP = 'telegram-outbox-pruning';
/** How often the messages past their retention are deleted (once across the fleet). */
export const TELEGRAM_OUTBOX_PRUNING_INTERVAL_MS = 60 * 60_000;
/** Rows removed per pass at most, so that one statement never deletes an unbounded backlog. */
export const TELEGRAM_OUTBOX_PRUNING_BATCH_ROWS = 10_000;

const DAY_MS = 24 * 60 * 60_000;

/**
 * Keeps `telegram_outbox` from growing forever: a recurring job of platform/jobs, as the rate limiter's ended windows
 * are swept, deleting the messages sent or skipped more than `TELEGRAM_RETENTION_DAYS` ago by the injected clock (the
 * clock that wrote `sent_at` and `skipped_at`). Messages still waiting stay (ADR 0107).
 */
export class TelegramOutboxPruningSweep implements Sweep {
  readonly name = TELEGRAM_OUTBOX_PRUNING_SWEEP;
  readonly intervalMs = TELEGRAM_OUTBOX_PRUNING_INTERVAL_MS;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly retentionDays: number,
  ) {}

  async sweep(): Promise<SweepPass> {
    const before = new Date(this.clock.now().getTime() - this.retentionDays * DAY_MS);
    const deleted = await pruneTelegramOutbox(this.dataSource, before, TELEGRAM_OUTBOX_PRUNING_BATCH_ROWS);
    return { acted: deleted, more: deleted === TELEGRAM_OUTBOX_PRUNING_BATCH_ROWS };
  }
}
