import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The checkpoints `kupa ledger verify` writes (docs/adr/0111-verify-from-a-checkpoint.md): one row per verify that
 * found no difference, chained by hash to the one before, with every account's balance and every stream's head at
 * its commit position beside it, so that `--since-checkpoint` replays only what came after.
 */
export class LedgerVerifyCheckpoints1771100011100 implements MigrationInterface {
  name = 'LedgerVerifyCheckpoints1771100011100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ledger_verify_checkpoints (
        checkpoint_id bigserial PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('FULL', 'SINCE')),
        commit_position bigint NOT NULL,
        created_at timestamptz NOT NULL,
        events_verified bigint NOT NULL,
        balances_digest text NOT NULL,
        heads_digest text NOT NULL,
        previous_hash text,
        hash text NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE ledger_verify_checkpoint_balances (
        checkpoint_id bigint NOT NULL REFERENCES ledger_verify_checkpoints ON DELETE CASCADE,
        account text NOT NULL,
        balance_minor bigint NOT NULL,
        PRIMARY KEY (checkpoint_id, account)
      )`);
    await queryRunner.query(`
      CREATE TABLE ledger_verify_checkpoint_heads (
        checkpoint_id bigint NOT NULL REFERENCES ledger_verify_checkpoints ON DELETE CASCADE,
        stream_id text NOT NULL,
        version integer NOT NULL,
        last_hash text NOT NULL,
        PRIMARY KEY (checkpoint_id, stream_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE ledger_verify_checkpoint_heads');
    await queryRunner.query('DROP TABLE ledger_verify_checkpoint_balances');
    await queryRunner.query('DROP TABLE ledger_verify_checkpoints');
  }
}
