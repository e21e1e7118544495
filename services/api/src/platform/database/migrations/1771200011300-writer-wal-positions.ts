import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read-your-writes across API processes (docs/adr/0113-read-replicas.md): each person's WAL position after their last
 * request that committed events, kept until the read replica has replayed past it, on the primary where every API
 * process sees it. Unlogged: it is never read on a replica, its rows live for a second or so, and writing it must
 * cost no WAL of its own. A crash of the primary empties it, which only lets reads right after that crash reach a
 * replica that may be a moment behind.
 */
export class WriterWalPositions1771200011300 implements MigrationInterface {
  name = 'WriterWalPositions1771200011300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE UNLOGGED TABLE writer_wal_positions (user_uuid uuid PRIMARY KEY, lsn pg_lsn NOT NULL)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE writer_wal_positions');
  }
}
