import type { MigrationInterface, QueryRunner } from 'typeorm';

/** First key of the two-key advisory lock that orders commits of events (the processors' lock uses 0x4b555041). */
export const EVENT_COMMIT_LOCK_NAMESPACE = 0x4b555043;
/** Second key of that lock. */
export const EVENT_COMMIT_LOCK_KEY = 1;

/**
 * Commit order and lasting ids for events (docs/adr/0061-commit-ordered-positions-and-lasting-event-ids.md).
 *
 * Every event gets a commit position at the moment its transaction commits: a deferred constraint trigger runs in
 * the commit's last step, takes one exclusive advisory lock, numbers the transaction's events from
 * `event_commit_position_seq` into `event_commits`, and the lock is released only after the commit has become
 * visible. Positions therefore become visible in order, so a reader that saw position n has seen every committed
 * event below n: processors read "after my checkpoint" without waiting for a server-wide snapshot horizon that any
 * transaction of any database could hold back. Within a stream the order follows versions, since the stream's row
 * lock makes the next version's transaction commit after the previous one.
 *
 * `event_id` is a random UUID: unlike positions, which a restored backup hands out again, it names one event forever,
 * and it is what Kafka consumers dedupe by. `recorded_at` becomes the time of the append statement instead of the
 * transaction's start.
 *
 * Existing events are numbered in the order processors read them until now (transaction id, then position), and each
 * checkpoint moves to the last commit position at or before where it stood, so that no processor handles an event
 * twice or skips one across the upgrade. `transaction_id` stays, to tell which events one transaction wrote together;
 * its index goes, since no read orders by it.
 */
export class EventCommitOrder1768400005800 implements MigrationInterface {
  name = 'EventCommitOrder1768400005800';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE events ADD COLUMN event_id uuid NOT NULL DEFAULT gen_random_uuid()');
    await runner.query('ALTER TABLE events ADD CONSTRAINT events_event_id_unique UNIQUE (event_id)');
    await runner.query('ALTER TABLE events ALTER COLUMN recorded_at SET DEFAULT clock_timestamp()');
    await runner.query(`
      CREATE TABLE event_commits (
        commit_position bigint PRIMARY KEY,
        global_position bigint NOT NULL CONSTRAINT event_commits_once UNIQUE
      )`);
    await runner.query('CREATE SEQUENCE event_commit_position_seq OWNED BY event_commits.commit_position');
    await runner.query(`
      INSERT INTO event_commits (commit_position, global_position)
      SELECT row_number() OVER (ORDER BY transaction_id, global_position), global_position FROM events`);
    await runner.query(
      `SELECT setval('event_commit_position_seq', max(commit_position)) FROM event_commits HAVING count(*) > 0`,
    );
    await runner.query('ALTER TABLE checkpoints ADD COLUMN commit_position bigint NOT NULL DEFAULT 0');
    await runner.query(`
      UPDATE checkpoints SET commit_position = coalesce(
        (SELECT max(c.commit_position) FROM event_commits c JOIN events e ON e.global_position = c.global_position
          WHERE (e.transaction_id, e.global_position) <= (checkpoints.transaction_id, checkpoints.global_position)),
        0)`);
    await runner.query('ALTER TABLE checkpoints DROP COLUMN transaction_id, DROP COLUMN global_position');
    // Still telling which events one transaction wrote together; no read orders by it any more.
    await runner.query('DROP INDEX events_transaction_order');
    await runner.query(`
      CREATE FUNCTION number_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Held until the commit is visible: the next transaction numbers its events only after that.
        PERFORM pg_advisory_xact_lock(${EVENT_COMMIT_LOCK_NAMESPACE}, ${EVENT_COMMIT_LOCK_KEY});
        INSERT INTO event_commits (commit_position, global_position)
          VALUES (nextval('event_commit_position_seq'), NEW.global_position);
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE CONSTRAINT TRIGGER events_number_commit AFTER INSERT ON events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_event_commit()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER events_number_commit ON events');
    await runner.query('DROP FUNCTION number_event_commit()');
    await runner.query('CREATE INDEX events_transaction_order ON events (transaction_id, global_position)');
    await runner.query(`ALTER TABLE checkpoints ADD COLUMN transaction_id xid8 NOT NULL DEFAULT '0',
                          ADD COLUMN global_position bigint NOT NULL DEFAULT 0`);
    await runner.query('ALTER TABLE checkpoints DROP COLUMN commit_position');
    await runner.query('DROP TABLE event_commits');
    await runner.query('ALTER TABLE events ALTER COLUMN recorded_at SET DEFAULT now()');
    await runner.query('ALTER TABLE events DROP COLUMN event_id');
  }
}
