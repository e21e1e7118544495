import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { Client } from 'pg';
import { EventCommitsPerTransaction1772400012800 } from '../database/migrations/1772400012800-event-commits-per-transaction';
import { ProcessorRunner, type Processor } from '../projections/processor-runner';
import { verifyStreamHashes } from './hash-chain-verifier';
import type { PostgresEventStore } from './postgres-event-store';
import { metadata, streamOf, useEventStore } from './event-store.fixtures';

/**
 * The upgrade of ADR 0128 on a store the per-event commit trigger of ADR 0061 wrote, with processors' checkpoints
 * standing where that schema let them stand: inside a transaction's events, at its end, and at the start. Every
 * processor must go on with exactly the events it had not handled, once each, in the order it would have read them.
 */
describe('One commit row per transaction: the upgrade from a row per event (ADR 0128) on PostgreSQL', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;
  const migration = new EventCommitsPerTransaction1772400012800();

  beforeAll(() => {
    ({ dataSource, store } = env);
  });

  async function inTransaction(work: (runner: QueryRunner) => Promise<void>): Promise<void> {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await work(runner);
      await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** `count` events on a new stream in one append: one transaction. */
  async function appendTogether(name: string, count: number): Promise<void> {
    await store.append(
      [
        {
          streamId: streamOf(name),
          expectedVersion: 0,
          events: Array.from({ length: count }, (_, n) => ({ type: 'Added', data: { n } })),
        },
      ],
      metadata,
    );
  }

  function recordingProcessor(name: string, handled: string[]): Processor {
    return {
      name,
      handles: '*',
      async handle(events, manager: EntityManager) {
        handled.push(...events.map((event) => event.globalPosition));
        // A key per event and processor: handling one twice fails the batch.
        await manager.query(
          'INSERT INTO upgrade_effects (processor, global_position) SELECT $1, unnest($2::bigint[])',
          [name, events.map((event) => event.globalPosition)],
        );
      },
    };
  }

  it('keeps every checkpoint at the same place: no event handled twice or skipped across the upgrade', async () => {
    await dataSource.query(
      'CREATE TABLE upgrade_effects (processor text, global_position bigint, PRIMARY KEY (processor, global_position))',
    );
    // Back to the per-event schema and trigger, then history written by it.
    await inTransaction((runner) => migration.down(runner));
    const [{ columns }]: Array<{ columns: string[] }> = await dataSource.query(
      `SELECT array_agg(column_name::text ORDER BY column_name) AS columns FROM information_schema.columns
        WHERE table_name = 'event_commits'`,
    );
    expect(columns).toEqual(['commit_position', 'global_position']);
    await appendTogether('before-a', 5);
    await appendTogether('before-b', 3);
    await appendTogether('before-c', 1);
    const oldOrder: Array<{ commit: string; event: string }> = await dataSource.query(
      `SELECT commit_position::text AS commit, global_position::text AS event FROM event_commits ORDER BY commit_position`,
    );
    // One row per event, the transaction's rows consecutive.
    expect(oldOrder).toHaveLength(9);

    // Checkpoints as the old batches left them: inside the first transaction (after its second event), at the end of
    // the second, and before everything.
    const standing = { inside: oldOrder[1].commit, atEnd: oldOrder[7].commit, start: '0' };
    await dataSource.query(
      `INSERT INTO checkpoints (name, commit_position) VALUES ('upgrade-inside', $1), ('upgrade-end', $2), ('upgrade-start', $3)`,
      [standing.inside, standing.atEnd, standing.start],
    );
    // Read when the test ends, with the in-flight append's events added below.
    const owed = (checkpoint: string) =>
      oldOrder.filter((row) => BigInt(row.commit) > BigInt(checkpoint)).map((row) => row.event);

    // An append in flight when the upgrade starts: the upgrade waits for its commit, which the old trigger numbers.
    const inFlight = new Client({ connectionString: (dataSource.options as { url: string }).url });
    await inFlight.connect();
    try {
      await inFlight.query('BEGIN');
      await inFlight.query(`INSERT INTO streams (stream_id, version) VALUES ($1, 2)`, [streamOf('in-flight')]);
      const raw: Array<{ global_position: string }> = (
        await inFlight.query(
          `INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
           SELECT $1, n, 'Raw', '{}', '{}', 'x' FROM generate_series(1, 2) AS n RETURNING global_position::text`,
          [streamOf('in-flight')],
        )
      ).rows;
      const upgrade = inTransaction((runner) => migration.up(runner));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const waiting: Array<{ count: number }> = await dataSource.query(
        `SELECT count(*)::int AS count FROM pg_locks WHERE NOT granted AND relation = 'events'::regclass`,
      );
      expect(waiting[0].count).toBe(1);
      await inFlight.query('COMMIT');
      await upgrade;
      const inFlightEvents = raw.map((row) => row.global_position);
      oldOrder.push(...inFlightEvents.map((event) => ({ commit: '', event })));
      const [{ head }]: Array<{ head: string }> = await dataSource.query(
        'SELECT max(commit_position)::text AS head FROM event_commits',
      );
      // The two in-flight events were numbered per event, after the history: 10 and 11.
      expect(Number(head)).toBe(11);
      oldOrder[9].commit = '10';
      oldOrder[10].commit = '11';
    } finally {
      await inFlight.end();
    }

    // Converted in place: each old row a commit of its one event, at its old position.
    const converted: Array<{ commit: string; first: string; last: string; count: number }> = await dataSource.query(
      `SELECT commit_position::text AS commit, first_position::text AS first, last_position::text AS last,
              event_count AS count FROM event_commits ORDER BY commit_position`,
    );
    expect(converted).toEqual(
      oldOrder.map((row) => ({ commit: row.commit, first: row.event, last: row.event, count: 1 })),
    );

    // New appends after the upgrade: one row per transaction.
    await appendTogether('after-a', 4);
    await appendTogether('after-b', 2);
    const newRows: Array<{ count: number }> = await dataSource.query(
      'SELECT event_count AS count FROM event_commits WHERE commit_position > 11 ORDER BY commit_position',
    );
    expect(newRows).toEqual([{ count: 4 }, { count: 2 }]);
    const appendedAfter: Array<{ event: string }> = await dataSource.query(
      `SELECT global_position::text AS event FROM events WHERE global_position > $1::bigint ORDER BY global_position`,
      [oldOrder[oldOrder.length - 1].event],
    );

    const runner = new ProcessorRunner(dataSource, store, { batchSize: 3 });
    const handled = new Map<string, string[]>();
    for (const name of ['upgrade-inside', 'upgrade-end', 'upgrade-start']) {
      handled.set(name, []);
      runner.register(recordingProcessor(name, handled.get(name) ?? []));
    }
    for (const [name, checkpoint] of [
      ['upgrade-inside', standing.inside],
      ['upgrade-end', standing.atEnd],
      ['upgrade-start', standing.start],
    ]) {
      await runner.drain(name);
      expect({ name, handled: handled.get(name) }).toEqual({
        name,
        handled: [...owed(checkpoint), ...appendedAfter.map((row) => row.event)],
      });
    }
    // The in-flight append, written raw, has no valid hashes; the store's own streams verify.
    const report = await verifyStreamHashes(dataSource);
    expect(report.problems.filter((found) => !found.streamId.startsWith('in-flight'))).toEqual([]);
    expect(report.problems.filter((found) => found.kind.startsWith('commit'))).toEqual([]);
  });
});
