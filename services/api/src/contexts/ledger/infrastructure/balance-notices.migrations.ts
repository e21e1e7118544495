import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `balance-notices` processor (ADR 0105) starts at the store's head when it is installed: a transfer received or
 * a balance that fell last year is no news, and a processor's new checkpoint would otherwise tell the whole history
 * to every client at once. A fresh database starts at the beginning all the same.
 */
export class BalanceNoticesCheckpoint1770900010510 implements MigrationInterface {
  name = 'BalanceNoticesCheckpoint1770900010510';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO checkpoints (name, commit_position)
      SELECT 'balance-notices', coalesce(max(commit_position), 0) FROM event_commits
      ON CONFLICT (name) DO NOTHING`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM checkpoints WHERE name = 'balance-notices'`);
  }
}
