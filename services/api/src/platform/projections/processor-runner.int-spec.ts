import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { ProcessorRunner, type Processor } from './processor-runner';
import type { PostgresEventStore } from '../event-store/postgres-event-store';
import { eventually, metadata, streamOf, useEventStore } from '../event-store/event-store.fixtures';

describe('ProcessorRunner on PostgreSQL', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;

  beforeAll(() => {
    ({ dataSource, store } = env);
  });

  describe('processors', () => {
    function recordingProcessor(name: string, delayMs = 0): Processor {
      return {
        name,
        handles: '*',
        async handle(events, manager: EntityManager) {
          if (delayMs > 0) await sleep(delayMs);
          // A plain INSERT: handling an event twice would violate the key and fail the batch.
          await manager.query(
            'INSERT INTO processor_effects (processor, global_position) SELECT $1, unnest($2::bigint[])',
            [name, events.map((event) => event.globalPosition)],
          );
        },
      };
    }

    async function effects(name: string): Promise<number> {
      const rows: { count: number }[] = await dataSource.query(
        'SELECT count(*)::int AS count FROM processor_effects WHERE processor = $1',
        [name],
      );
      return rows[0].count;
    }

    async function totalEvents(): Promise<number> {
      const rows: { count: number }[] = await dataSource.query('SELECT count(*)::int AS count FROM events');
      return rows[0].count;
    }

    beforeAll(async () => {
      await dataSource.query(
        'CREATE TABLE processor_effects (processor text, global_position bigint, PRIMARY KEY (processor, global_position))',
      );
      // Twenty commits of three events: batches of whole commits, several of them a batch.
      const streamId = streamOf('bulk');
      for (let commit = 0; commit < 20; commit += 1) {
        await store.append(
          [
            {
              streamId,
              expectedVersion: commit * 3,
              events: Array.from({ length: 3 }, (_, n) => ({ type: 'Bulk', data: { n: commit * 3 + n } })),
            },
          ],
          metadata,
        );
      }
    });

    it('reads a commit larger than its batch whole and once, and the commits after it in batches (ADR 0128)', async () => {
      const runner = new ProcessorRunner(dataSource, store, { batchSize: 4 });
      const batches: number[][] = [];
      runner.register({
        name: 'large-commit',
        handles: ['Large', 'Small'],
        async handle(events, manager) {
          batches.push(events.map((event) => (event.data as { n: number }).n));
          await recordingProcessor('large-commit').handle(events, manager);
        },
      });
      // Only what follows: the processor starts at the newest commit.
      await dataSource.query(
        `INSERT INTO checkpoints (name, commit_position) SELECT 'large-commit', coalesce(max(commit_position), 0) FROM event_commits`,
      );
      const streamId = streamOf('large');
      await store.append(
        [
          {
            streamId,
            expectedVersion: 0,
            events: Array.from({ length: 10 }, (_, n) => ({ type: 'Large', data: { n } })),
          },
        ],
        metadata,
      );
      for (let n = 10; n < 16; n += 2) {
        await store.append(
          [{ streamId, expectedVersion: n, events: [n, n + 1].map((m) => ({ type: 'Small', data: { n: m } })) }],
          metadata,
        );
      }
      expect(await runner.drain('large-commit')).toBe(16);
      // The ten events of one commit in one batch, though the batch is 4; then whole commits of two while fewer than
      // 4 events come before them in the batch: 2 + 2, then the last 2.
      expect(batches).toEqual([Array.from({ length: 10 }, (_, n) => n), [10, 11, 12, 13], [14, 15]]);
      expect(await effects('large-commit')).toBe(16);
      expect((await runner.checkpoint('large-commit'))?.commitPosition).toBe(
        (await dataSource.query('SELECT max(commit_position)::text AS head FROM event_commits'))[0].head,
      );
    });

    it('resumes after a restart without losing or repeating an event', async () => {
      const errors: unknown[] = [];
      const options = {
        batchSize: 5,
        pollIntervalMs: 20,
        onError: (_name: string, error: unknown) => errors.push(error),
      };
      const first = new ProcessorRunner(dataSource, store, options);
      first.register(recordingProcessor('resume', 15));
      first.start();
      await eventually(
        () => effects('resume'),
        (count) => count >= 15,
        'some batches',
      );
      await first.stop();
      expect(first.isLeading('resume')).toBe(false);
      const total = await totalEvents();
      const handledBeforeRestart = await effects('resume');
      expect(handledBeforeRestart).toBeLessThan(total);

      const second = new ProcessorRunner(dataSource, store, options);
      second.register(recordingProcessor('resume'));
      second.start();
      await eventually(
        () => effects('resume'),
        (count) => count >= total,
        'every event',
      );
      await second.stop();
      expect(errors).toEqual([]);
      expect(await effects('resume')).toBe(total);
      const checkpoint = await second.checkpoint('resume');
      const last: { commit_position: string }[] = await dataSource.query(
        'SELECT max(commit_position)::text AS commit_position FROM event_commits',
      );
      expect(checkpoint?.commitPosition).toBe(last[0].commit_position);
    });

    it('lets only one of two runners lead, and the other take over when the leader stops', async () => {
      const errors: unknown[] = [];
      const options = {
        batchSize: 10,
        pollIntervalMs: 20,
        onError: (_name: string, error: unknown) => errors.push(error),
      };
      const one = new ProcessorRunner(dataSource, store, options);
      const two = new ProcessorRunner(dataSource, store, options);
      one.register(recordingProcessor('lead'));
      two.register(recordingProcessor('lead'));
      one.start();
      two.start();
      const total = await totalEvents();
      await eventually(
        () => effects('lead'),
        (count) => count >= total,
        'every event',
      );
      await sleep(100);
      expect([one.isLeading('lead'), two.isLeading('lead')].filter(Boolean)).toHaveLength(1);
      const locks: { count: number }[] = await dataSource.query(
        `SELECT count(*)::int AS count FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`,
      );
      expect(locks[0].count).toBe(1);

      const [leader, follower] = one.isLeading('lead') ? [one, two] : [two, one];
      await leader.stop();
      await store.append(
        [{ streamId: streamOf('late'), expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      await eventually(
        () => effects('lead'),
        (count) => count >= total + 1,
        'the event after the handover',
      );
      expect(follower.isLeading('lead')).toBe(true);
      await follower.stop();
      expect(errors).toEqual([]);
      expect(await effects('lead')).toBe(total + 1);
    });

    it('waits longer after each failed batch in a row when the processor has a retry backoff', async () => {
      const attempts: number[] = [];
      const failing: Processor = {
        name: 'backoff',
        handles: '*',
        retryBackoff: { baseMs: 100, maxMs: 200 },
        async handle(events, manager) {
          attempts.push(performance.now());
          if (attempts.length <= 4) throw new Error(`outage ${attempts.length}`);
          await recordingProcessor('backoff').handle(events, manager);
        },
      };
      const errors: unknown[] = [];
      const runner = new ProcessorRunner(dataSource, store, {
        batchSize: 1000,
        pollIntervalMs: 10,
        onError: (_name, error) => errors.push(error),
      });
      runner.register(failing);
      runner.start();
      const total = await totalEvents();
      await eventually(
        () => effects('backoff'),
        (count) => count >= total,
        'every event after the outage',
      );
      await runner.stop();
      expect(errors.map((error) => (error as Error).message)).toEqual(['outage 1', 'outage 2', 'outage 3', 'outage 4']);
      const gaps = attempts.slice(1, 5).map((at, index) => at - attempts[index]);
      // 100, 200, then capped at 200 ms; the poll interval alone would have been 10 ms.
      expect(gaps[0]).toBeGreaterThanOrEqual(95);
      expect(gaps[1]).toBeGreaterThanOrEqual(195);
      expect(gaps[2]).toBeGreaterThanOrEqual(195);
      expect(gaps[3]).toBeGreaterThanOrEqual(195);
    });

    it("looks again at its own idle poll interval for a processor that sets one, and at the runner's otherwise", async () => {
      // Nothing wakes this runner: the events are appended as another process would, so only the poll finds them.
      const runner = new ProcessorRunner(dataSource, store, { pollIntervalMs: 60_000, batchSize: 1_000 });
      runner.register({ ...recordingProcessor('idle-quick'), idlePollIntervalMs: 20 });
      runner.register(recordingProcessor('idle-runner'));
      runner.start();
      try {
        const before = await totalEvents();
        await eventually(
          async () => [await effects('idle-quick'), await effects('idle-runner')],
          (counts) => counts.every((count) => count >= before),
          'the first look of both',
        );
        await store.append(
          [{ streamId: streamOf('idle'), expectedVersion: 0, events: [{ type: 'Idle', data: { n: 1 } }] }],
          metadata,
        );
        const quickSeen = await eventually(
          () => effects('idle-quick'),
          (count) => count > before,
          'the processor with its own poll interval to find the new event',
        );
        expect(quickSeen).toBe(before + 1);
        // The other waits out the runner's minute: it has not looked again.
        expect(await effects('idle-runner')).toBe(before);
      } finally {
        await runner.stop();
      }
    });

    it('hands a processor only the types it handles, each once, and moves its checkpoint past the others', async () => {
      const streamId = streamOf('typed');
      await store.append(
        [
          {
            streamId,
            expectedVersion: 0,
            events: Array.from({ length: 9 }, (_, n) => ({ type: n % 3 === 0 ? 'Picked' : 'Passed', data: { n } })),
          },
        ],
        metadata,
      );
      const seen: Array<{ type: string; n: number }> = [];
      const runner = new ProcessorRunner(dataSource, store, { batchSize: 4 });
      runner.register({
        name: 'typed',
        handles: ['Picked'],
        async handle(events) {
          seen.push(...events.map((event) => ({ type: event.type, n: (event.data as { n: number }).n })));
        },
      });
      const total = await totalEvents();
      await eventually(
        () => runner.drain('typed'),
        () => seen.length >= 3,
        'the picked events',
      );
      expect(seen).toEqual([
        { type: 'Picked', n: 0 },
        { type: 'Picked', n: 3 },
        { type: 'Picked', n: 6 },
      ]);
      const checkpoint = await runner.checkpoint('typed');
      const last: { commit_position: string }[] = await dataSource.query(
        'SELECT max(commit_position)::text AS commit_position FROM event_commits',
      );
      // The last event is a `Passed` one: the checkpoint moved past it although the processor never saw it.
      expect(checkpoint?.commitPosition).toBe(last[0].commit_position);
      expect(await totalEvents()).toBe(total);
      expect(await runner.drain('typed')).toBe(0);
      expect(seen).toHaveLength(3);
    });

    it('tells whether a processor has passed the newest commit, waiting at most the limit given', async () => {
      const runner = new ProcessorRunner(dataSource, store, { batchSize: 1_000 });
      runner.register(recordingProcessor('passed-head'));
      // Never run: its checkpoint is behind every event, and the wait gives up after its limit.
      const started = Date.now();
      expect(await runner.passedHead('passed-head', 50)).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(50);
      await runner.drain('passed-head');
      expect(await runner.passedHead('passed-head', 0)).toBe(true);
    });

    it('drains without the loop, and a second drain finds nothing new', async () => {
      const runner = new ProcessorRunner(dataSource, store, { batchSize: 7 });
      runner.register(recordingProcessor('drain'));
      const total = await totalEvents();
      expect(
        await eventually(
          () => runner.drain('drain').then(() => effects('drain')),
          (count) => count >= total,
          'drained',
        ),
      ).toBe(total);
      expect(await runner.drain()).toBe(0);
    });
  });
});
