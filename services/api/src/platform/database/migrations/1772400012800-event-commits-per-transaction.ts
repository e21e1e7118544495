import type { MigrationInterface, QueryRunner } from 'typeorm';
import { EVENT_COMMIT_LOCK_KEY, EVENT_COMMIT_LOCK_NAMESPACE } from './1768400005800-event-commit-order';

/**
 * The setting in which a transaction notes its events until it commits: "first last count" (positions, and how many
 * events). Set with `is_local`, so it ends with the transaction and a rolled-back savepoint takes back what it noted.
 */
const NOTED = 'kupa.event_commit';

/**
 * The commit trigger of ADR 0128: deferred like ADR 0061's, but queued only for a transaction's first event (its
 * `WHEN` runs at each insert and notes the event), so the commit runs it once, whatever the number of events.
 * Exported for `kupa events partition`, which creates it again on the partitioned parent (ADR 0114).
 */
export const CREATE_EVENT_COMMIT_TRIGGER = `
  CREATE CONSTRAINT TRIGGER events_number_commit AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (note_event_commit(NEW.global_position)) EXECUTE FUNCTION number_event_commit()`;

/**
 * One `event_commits` row per committed transaction instead of one per event
 * (docs/adr/0128-one-commit-row-per-transaction.md). The row holds the commit position, the writer's transaction id,
 * the first and last global position it appended and how many events: its events are those between the two positions
 * that carry its transaction id (another transaction's appends may interleave with its positions). The trigger numbers
 * a commit once, under the advisory lock of ADR 0061, so commit positions still become visible in order.
 *
 * Existing rows keep their commit positions, each as a commit of its one event, so every checkpoint (processors',
 * republish runs', verify's) means the same place as before. `events` is held in SHARE mode while the table is
 * converted: appends wait for the conversion instead of committing through the old trigger into the old table.
 */
export class EventCommitsPerTransaction1772400012800 implements MigrationInterface {
  name = 'EventCommitsPerTransaction1772400012800';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('LOCK TABLE events IN SHARE MODE');
    await runner.query('DROP TRIGGER events_number_commit ON events');
    await runner.query('ALTER SEQUENCE event_commit_position_seq OWNED BY NONE');
    await runner.query('ALTER TABLE event_commits RENAME TO event_commits_per_event');
    await runner.query('ALTER INDEX event_commits_pkey RENAME TO event_commits_per_event_pkey');
    await runner.query(`
      CREATE TABLE event_commits (
        commit_position bigint NOT NULL,
        transaction_id xid8 NOT NULL,
        first_position bigint NOT NULL,
        last_position bigint NOT NULL,
        event_count integer NOT NULL
      )`);
    await runner.query(`
      INSERT INTO event_commits (commit_position, transaction_id, first_position, last_position, event_count)
      SELECT c.commit_position, e.transaction_id, c.global_position, c.global_position, 1
        FROM event_commits_per_event c JOIN events e ON e.global_position = c.global_position`);
    // Built after the rows, as one sort each rather than an insert each.
    await runner.query('ALTER TABLE event_commits ADD CONSTRAINT event_commits_pkey PRIMARY KEY (commit_position)');
    // An event's commit, for verify and a rebuild's catch-up: its transaction's rows, then the one whose range holds it.
    await runner.query('CREATE INDEX event_commits_transaction ON event_commits (transaction_id)');
    await runner.query('DROP TABLE event_commits_per_event');
    await runner.query('ALTER SEQUENCE event_commit_position_seq OWNED BY event_commits.commit_position');
    await runner.query(`
      CREATE FUNCTION note_event_commit(appended bigint) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        noted text[] := string_to_array(nullif(current_setting('${NOTED}', true), ''), ' ');
        kept text;
      BEGIN
        -- Assignments, not PERFORM: PL/pgSQL evaluates a simple expression directly, where PERFORM runs a query
        -- through SPI, and this runs for every event inserted.
        IF noted IS NULL THEN
          kept := set_config('${NOTED}', appended || ' ' || appended || ' 1', true);
          RETURN true;
        END IF;
        kept := set_config('${NOTED}', least(noted[1]::bigint, appended) || ' ' || greatest(noted[2]::bigint, appended)
          || ' ' || (noted[3]::integer + 1), true);
        RETURN false;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION number_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        noted text[] := string_to_array(current_setting('${NOTED}'), ' ');
      BEGIN
        -- Held until the commit is visible: the next transaction numbers its commit only after that.
        PERFORM pg_advisory_xact_lock(${EVENT_COMMIT_LOCK_NAMESPACE}, ${EVENT_COMMIT_LOCK_KEY});
        INSERT INTO event_commits (commit_position, transaction_id, first_position, last_position, event_count)
          VALUES (nextval('event_commit_position_seq'), NEW.transaction_id, noted[1]::bigint, noted[2]::bigint,
                  noted[3]::integer);
        -- An event inserted after this (only after SET CONSTRAINTS ... IMMEDIATE) starts a commit row of its own.
        PERFORM set_config('${NOTED}', '', true);
        RETURN NULL;
      END $$`);
    await runner.query(CREATE_EVENT_COMMIT_TRIGGER);
  }

  /**
   * Back to a row per event, numbered in commit order and then position order; each processor's checkpoint moves to
   * the number of the last event of the commit it stood at, which is the same place.
   */
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('LOCK TABLE events IN SHARE MODE');
    await runner.query('DROP TRIGGER events_number_commit ON events');
    await runner.query('DROP FUNCTION note_event_commit(bigint)');
    await runner.query('ALTER SEQUENCE event_commit_position_seq OWNED BY NONE');
    await runner.query('ALTER TABLE event_commits RENAME TO event_commits_per_transaction');
    await runner.query('ALTER INDEX event_commits_pkey RENAME TO event_commits_per_transaction_pkey');
    await runner.query(`
      CREATE TABLE event_commits (
        commit_position bigint PRIMARY KEY,
        global_position bigint NOT NULL CONSTRAINT event_commits_once UNIQUE
      )`);
    await runner.query(`
      CREATE TEMPORARY TABLE event_commits_numbered ON COMMIT DROP AS
      SELECT c.commit_position AS old_position, e.global_position,
             row_number() OVER (ORDER BY c.commit_position, e.global_position) AS commit_position
        FROM event_commits_per_transaction c
        JOIN events e ON e.global_position BETWEEN c.first_position AND c.last_position
                     AND e.transaction_id = c.transaction_id`);
    await runner.query(
      'INSERT INTO event_commits (commit_position, global_position) SELECT commit_position, global_position FROM event_commits_numbered',
    );
    await runner.query(`
      UPDATE checkpoints SET commit_position = coalesce(
        (SELECT max(n.commit_position) FROM event_commits_numbered n WHERE n.old_position <= checkpoints.commit_position), 0)`);
    await runner.query('DROP TABLE event_commits_per_transaction, event_commits_numbered');
    await runner.query(
      `SELECT setval('event_commit_position_seq', max(commit_position)) FROM event_commits HAVING count(*) > 0`,
    );
    await runner.query('ALTER SEQUENCE event_commit_position_seq OWNED BY event_commits.commit_position');
    await runner.query(`
      CREATE OR REPLACE FUNCTION number_event_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(${EVENT_COMMIT_LOCK_NAMESPACE}, ${EVENT_COMMIT_LOCK_KEY});
        INSERT INTO event_commits (commit_position, global_position)
          VALUES (nextval('event_commit_position_seq'), NEW.global_position);
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE CONSTRAINT TRIGGER events_number_commit AFTER INSERT ON events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_event_commit()`);
  }
}
