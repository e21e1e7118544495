import type { QueryRunner } from 'typeorm';

/**
 * The `idempotency_keys` table. It was first created by the ledger's `LedgerSchema1767225600300`, which existing
 * databases and backups (ADR 0065) record as run under that name, so that migration keeps creating it by calling
 * this; the table belongs to this module, whichever context's command claims a key.
 */
export async function createIdempotencyKeysTable(runner: QueryRunner): Promise<void> {
  await runner.query(`
      CREATE TABLE idempotency_keys (
        actor_uuid uuid NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        status_code integer,
        response jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (actor_uuid, key)
      )`);
}

export async function dropIdempotencyKeysTable(runner: QueryRunner): Promise<void> {
  await runner.query(`DROP TABLE idempotency_keys`);
}
