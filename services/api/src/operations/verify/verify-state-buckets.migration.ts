import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The checkpoints' state kept once and in buckets (docs/adr/0122-checkpoint-state-in-buckets.md): one current set of
 * stream heads and balances, updated in place by each checkpoint, each row filed in a bucket whose digest is stored,
 * so that `--since-checkpoint` reads and writes only the buckets its events touch. The checkpoints written before
 * are dropped (their digests were over whole tables): the next full `kupa ledger verify` writes a new FULL one, and
 * until then `--since-checkpoint` answers that there is none.
 */
export class LedgerVerifyStateBuckets1772200012200 implements MigrationInterface {
  name = 'LedgerVerifyStateBuckets1772200012200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE ledger_verify_checkpoint_heads');
    await queryRunner.query('DROP TABLE ledger_verify_checkpoint_balances');
    await queryRunner.query('DELETE FROM ledger_verify_checkpoints');
    await queryRunner.query('ALTER TABLE ledger_verify_checkpoints ADD COLUMN bucket_count integer NOT NULL');
    await queryRunner.query(`
      CREATE TABLE ledger_verify_state_heads (
        stream_id text PRIMARY KEY,
        bucket integer NOT NULL,
        version integer NOT NULL,
        last_hash text NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX ledger_verify_state_heads_bucket ON ledger_verify_state_heads (bucket)');
    await queryRunner.query(`
      CREATE TABLE ledger_verify_state_balances (
        account text PRIMARY KEY,
        bucket integer NOT NULL,
        balance_minor bigint NOT NULL
      )`);
    await queryRunner.query(
      'CREATE INDEX ledger_verify_state_balances_bucket ON ledger_verify_state_balances (bucket)',
    );
    await queryRunner.query(`
      CREATE TABLE ledger_verify_state_buckets (
        bucket integer PRIMARY KEY,
        heads_digest text NOT NULL,
        balances_digest text NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE ledger_verify_state_buckets');
    await queryRunner.query('DROP TABLE ledger_verify_state_balances');
    await queryRunner.query('DROP TABLE ledger_verify_state_heads');
    await queryRunner.query('DELETE FROM ledger_verify_checkpoints');
    await queryRunner.query('ALTER TABLE ledger_verify_checkpoints DROP COLUMN bucket_count');
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
}
