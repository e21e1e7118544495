import { Logger } from '@nestjs/common';
import type { Update } from 'grammy/types';
import type { DataSource } from 'typeorm';

/** What a context does with one update from Telegram (the notifications context's bot). */
export type TelegramUpdateHandler = (update: Update) => Promise<void>;

/**
 * Hands each update from Telegram to the registered handler once (docs/adr/0103-telegram-channel.md), whether it came
 * by webhook (which Telegram repeats when we fail to answer) or by long polling (whose offset is the largest update
 * id handled). An update is claimed in `telegram_updates` before it is handled and the claim is taken back if the
 * handler throws, so a failed update is offered again and a handled one never is.
 */
export class TelegramUpdates {
  private handler: TelegramUpdateHandler | null = null;
  private readonly logger = new Logger('Telegram');

  constructor(private readonly dataSource: DataSource) {}

  register(handler: TelegramUpdateHandler): void {
    if (this.handler) throw new Error('A Telegram update handler is registered twice');
    this.handler = handler;
  }

  /** The offset a `getUpdates` asks from: one past the largest update handled. */
  async nextOffset(): Promise<number> {
    const [row]: Array<{ last: string | null }> = await this.dataSource.query(
      'SELECT max(update_id)::text AS last FROM telegram_updates',
    );
    return row?.last ? Number(row.last) + 1 : 0;
  }

  /**
   * Deletes the claims of updates received more than `retentionDays` ago, at most `batchRows` a call, always keeping
   * the largest update id: it is the polling offset, and without it `getUpdates` would start again from Telegram's
   * oldest kept update. Answers how many it deleted. Telegram repeats an update for a day at most, so a claim older
   * than the retention (TELEGRAM_RETENTION_DAYS, at least 2) can no longer stop a repeat. The age is the database's,
   * as `received_at` is: an application clock moved for a demo must not make a fresh claim look old.
   */
  async prune(retentionDays: number, batchRows: number): Promise<number> {
    // A SELECT around the DELETE, so that TypeORM answers rows rather than its [rows, count] pair for a DELETE.
    const [{ deleted }]: { deleted: number }[] = await this.dataSource.query(
      `WITH deleted AS (
         DELETE FROM telegram_updates WHERE update_id IN (
           SELECT update_id FROM telegram_updates
            WHERE received_at < now() - make_interval(days => $1)
              AND update_id < (SELECT max(update_id) FROM telegram_updates)
            LIMIT $2
         )
         RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM deleted`,
      [retentionDays, batchRows],
    );
    return deleted;
  }

  /** Handles the update unless it was handled before; answers whether it was handled now. */
  async handle(update: Update): Promise<boolean> {
    const claimed: unknown[] = await this.dataSource.query(
      `INSERT INTO telegram_updates (update_id, received_at) VALUES ($1, now())
       ON CONFLICT (update_id) DO NOTHING RETURNING update_id`,
      [update.update_id],
    );
    if (claimed.length === 0) return false;
    try {
      if (this.handler) await this.handler(update);
      else this.logger.warn(`Telegram update ${update.update_id} arrived with no handler registered`);
      return true;
    } catch (error) {
      await this.dataSource.query('DELETE FROM telegram_updates WHERE update_id = $1', [update.update_id]);
      throw error;
    }
  }
}
