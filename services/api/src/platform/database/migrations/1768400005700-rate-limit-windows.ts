import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limiter's counters (docs/adr/0057-shared-rate-limits-and-no-sign-in-lock-out.md): one row per counted key
 * (the route or scope, the rule and a SHA-256 of the address, e-mail or account) and its current fixed window, shared
 * by every process on the database so that a limit holds for the fleet, not per process. A row whose window ended is
 * reset in place by the next request for its key and swept away otherwise; the index on `expires_at` serves that
 * sweep.
 */
export class RateLimitWindows1768400005700 implements MigrationInterface {
  name = 'RateLimitWindows1768400005700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE rate_limit_windows (
        key text PRIMARY KEY,
        count integer NOT NULL CHECK (count >= 0),
        expires_at timestamptz NOT NULL
      )`);
    await runner.query('CREATE INDEX rate_limit_windows_expires_at_idx ON rate_limit_windows (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE rate_limit_windows');
  }
}
