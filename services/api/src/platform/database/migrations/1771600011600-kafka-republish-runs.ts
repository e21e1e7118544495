import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The runs of `kupa events republish` (docs/adr/0116-kafka-republish.md): one row per target topic prefix, with the
 * end the run was given when it started and the commit position up to which the broker has acknowledged everything.
 * Not a processor checkpoint: it never moves the live publisher's, and a run that reached its end stays as a record.
 */
export class KafkaRepublishRuns1771600011600 implements MigrationInterface {
  name = 'KafkaRepublishRuns1771600011600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE kafka_republish_runs (
        topic_prefix text PRIMARY KEY,
        to_position bigint NOT NULL CHECK (to_position >= 0),
        commit_position bigint NOT NULL DEFAULT 0 CHECK (commit_position <= to_position),
        events_sent bigint NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE kafka_republish_runs');
  }
}
