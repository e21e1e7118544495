import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store (docs/ARCHITECTURE.md, The event store): events, the current version and hash head of every stream,
 * and the checkpoints of async processors. Stream ids use the "C" collation so that the database sorts them byte-wise,
 * exactly as the store sorts them before locking; two different orders could let crossing commands deadlock.
 */
export class EventStore1763800000000 implements MigrationInterface {
  name = 'EventStore1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE streams (
        stream_id text COLLATE "C" PRIMARY KEY,
        version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
        last_hash text
      )`);
    await queryRunner.query(`
      CREATE TABLE events (
        global_position bigserial PRIMARY KEY,
        stream_id text COLLATE "C" NOT NULL,
        stream_version integer NOT NULL CHECK (stream_version > 0),
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        hash text NOT NULL,
        CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version)
      )`);
    await queryRunner.query('CREATE INDEX events_transaction_order ON events (transaction_id, global_position)');
    await queryRunner.query(`
      CREATE TABLE checkpoints (
        name text PRIMARY KEY,
        transaction_id xid8 NOT NULL DEFAULT '0',
        global_position bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE checkpoints');
    await queryRunner.query('DROP TABLE events');
    await queryRunner.query('DROP TABLE streams');
  }
}
