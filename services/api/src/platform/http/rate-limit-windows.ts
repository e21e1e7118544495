import type { DataSource } from 'typeorm';
import type { Clock } from '../clock';
import type { Sweep, SweepPass } from '../jobs';

/** One key of a rule: at most `limit` counted requests per fixed window of `windowMs`. */
export interface RateLimitCount {
  key: string;
  limit: number;
  windowMs: number;
}

/** A key's current fixed window: how many requests it holds and when it ends. */
export interface RateLimitWindow {
  key: string;
  count: number;
  expiresAtMs: number;
}

/** Rows removed per pass at most, so that one statement never deletes an unbounded backlog. */
const SWEEP_BATCH_ROWS = 10_000;

interface WindowRow {
  key: string;
  count: number;
  expires_at: Date;
}

function windowsOf(rows: readonly WindowRow[]): Map<string, RateLimitWindow> {
  return new Map(
    rows.map((row) => [row.key, { key: row.key, count: row.count, expiresAtMs: row.expires_at.getTime() }]),
  );
}

/**
 * The rate limiter's counters in PostgreSQL (`rate_limit_windows`), which every API process of a deployment shares,
 * so that a limit holds for the fleet as a whole (docs/adr/0057-shared-rate-limits-and-no-sign-in-lock-out.md).
 * Time is the caller's (the injected `Clock`), never the database's, so tests move it by hand.
 */
export class RateLimitWindows {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts one request against each of `counts` (a window that ended starts afresh) and answers those windows as
   * counted, together with the live windows of `readKeys`, which it does not count: one statement. Each counted row
   * is locked while it is counted, so parallel requests in any process see each other's counts.
   */
  async countAndRead(
    counts: readonly RateLimitCount[],
    readKeys: readonly string[],
    nowMs: number,
  ): Promise<Map<string, RateLimitWindow>> {
    if (counts.length === 0 && readKeys.length === 0) return new Map();
    if (counts.length === 0) {
      // Nothing to count (a rule counted once the request ended): a plain read, which PostgreSQL plans for less than
      // the statement below with its empty insert.
      const windows: WindowRow[] = await this.dataSource.query(
        'SELECT key, count, expires_at FROM rate_limit_windows WHERE key = ANY($1::text[]) AND expires_at > $2',
        [readKeys, new Date(nowMs).toISOString()],
      );
      return windowsOf(windows);
    }
    // Rows are locked in key order, so two requests counting the same keys cannot deadlock.
    const sorted = [...counts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows: WindowRow[] = await this.dataSource.query(
      `WITH counted AS (
         INSERT INTO rate_limit_windows AS w (key, count, expires_at)
         SELECT c.key, 1, $1::timestamptz + c.window_ms * interval '1 millisecond'
           FROM unnest($2::text[], $3::bigint[]) WITH ORDINALITY AS c(key, window_ms, position)
          ORDER BY c.position
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN w.expires_at <= $1 THEN 1 ELSE w.count + 1 END,
           expires_at = CASE WHEN w.expires_at <= $1 THEN excluded.expires_at ELSE w.expires_at END
         RETURNING w.key, w.count, w.expires_at
       )
       SELECT key, count, expires_at FROM counted
       UNION ALL
       SELECT key, count, expires_at FROM rate_limit_windows
        WHERE key = ANY($4::text[]) AND expires_at > $1 AND NOT key = ANY($2::text[])`,
      [
        new Date(nowMs).toISOString(),
        sorted.map((count) => count.key),
        sorted.map((count) => count.windowMs),
        readKeys,
      ],
    );
    return windowsOf(rows);
  }

  /** Gives back one place in each of these windows, unless a window has ended and started afresh meanwhile. */
  async giveBack(windows: readonly RateLimitWindow[]): Promise<void> {
    if (windows.length === 0) return;
    await this.dataSource.query(
      `UPDATE rate_limit_windows AS w SET count = w.count - 1
         FROM unnest($1::text[], $2::timestamptz[]) AS g(key, expires_at)
        WHERE w.key = g.key AND w.expires_at = g.expires_at AND w.count > 0`,
      [windows.map((window) => window.key), windows.map((window) => new Date(window.expiresAtMs).toISOString())],
    );
  }

  /**
   * Deletes windows that have ended (a key's next request would have reset its row anyway), at most a batch per
   * call; answers how many it deleted.
   */
  async sweep(nowMs: number): Promise<number> {
    // A SELECT around the DELETE, so that TypeORM answers rows rather than its [rows, count] pair for a DELETE.
    const [{ deleted }]: { deleted: number }[] = await this.dataSource.query(
      `WITH deleted AS (
         DELETE FROM rate_limit_windows WHERE key IN (
           SELECT key FROM rate_limit_windows WHERE expires_at <= $1 LIMIT $2
         ) AND expires_at <= $1
         RETURNING 1
       )
       SELECT count(*)::int AS deleted FROM deleted`,
      [new Date(nowMs).toISOString(), SWEEP_BATCH_ROWS],
    );
    return deleted;
  }
}

export const RATE_LIMIT_WINDOWS_SWEEP = 'rate-limit-windows';
/** How often the windows that have ended are deleted (once across the fleet). */
export const RATE_LIMIT_WINDOWS_SWEEP_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes the windows that have ended, by the injected clock: a recurring job of platform/jobs
 * (docs/adr/0067-one-substrate-for-background-work.md), where each API process once did it beside a request.
 */
export class RateLimitWindowsSweep implements Sweep {
  readonly name = RATE_LIMIT_WINDOWS_SWEEP;
  readonly intervalMs = RATE_LIMIT_WINDOWS_SWEEP_INTERVAL_MS;

  constructor(
    private readonly windows: RateLimitWindows,
    private readonly clock: Clock,
  ) {}

  async sweep(): Promise<SweepPass> {
    const deleted = await this.windows.sweep(this.clock.now().getTime());
    return { acted: deleted, more: deleted === SWEEP_BATCH_ROWS };
  }
}
