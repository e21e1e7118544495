import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError, type Evolution } from '../../kernel';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { systemContext } from '../auth';
import { ManualClock } from '../clock/clock';
import { platformMigrations } from '../database/migrations';
import { WrongExpectedVersionError } from '../event-store/errors';
import type { InlineProjection } from '../event-store/event-store.port';
import { EventTypeRegistry } from '../event-store/event-type-registry';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { withLogContext } from '../observability/log-context';
import { Metrics } from '../observability/metrics';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import {
  CommandPipeline,
  foldedStreamKind,
  type StreamKind,
  type StreamLoader,
  VERSION_CONFLICT_ATTEMPTS,
} from './command-pipeline';

type CounterEvent = { type: 'Incremented'; data: { by: number } };
interface CounterState {
  total: number;
}
const counterEvolution: Evolution<CounterState, CounterEvent> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
};
const counters = foldedStreamKind(counterEvolution, (id) => `counter-${id}`);

function increment(by: number, state: CounterState): CounterEvent[] {
  if (by <= 0) throw new DomainError('error.validation.must.be.positive', { field: 'by' });
  if (state.total + by > 100) throw new DomainError('error.insufficient.balance');
  return [{ type: 'Incremented', data: { by } }];
}

describe('CommandPipeline on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let store: PostgresEventStore;
  let clock: ManualClock;
  let pipeline: CommandPipeline;
  let metrics: Metrics;
  const projected: { streamId: string; by: number; occurredAt: string }[] = [];

  const recorder: InlineProjection = {
    name: 'test-recorder',
    handles: ['Incremented'],
    async apply(events) {
      for (const event of events)
        projected.push({
          streamId: event.streamId,
          by: (event.data as { by: number }).by,
          occurredAt: event.metadata.occurredAt,
        });
    },
    async reset() {},
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource({
      type: 'postgres',
      url: database.url,
      migrations: platformMigrations,
      extra: { max: 20 },
    });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query('CREATE TABLE side_rows (id text PRIMARY KEY, total int NOT NULL)');
    const eventTypes = new EventTypeRegistry();
    const projections = new InlineProjectionRegistry(dataSource, eventTypes);
    projections.register(recorder);
    store = new PostgresEventStore(dataSource, projections, eventTypes);
    clock = new ManualClock(new Date('2026-05-01T00:00:00Z'));
    metrics = new Metrics({ processMetrics: false });
    pipeline = new CommandPipeline(store, clock, metrics);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const add = (id: string, by: number) =>
    pipeline.run({
      context: systemContext(),
      streams: { counter: counters.ref(id) },
      decide: ({ counter }) => {
        const events = increment(by, counter.state);
        return { events: { counter: events }, result: counter.state.total + by };
      },
      alongside: async (tx, decision) => {
        await tx.manager.query(
          'INSERT INTO side_rows (id, total) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET total = EXCLUDED.total',
          [id, decision.result],
        );
      },
    });

  /** What the metrics counted for the commands run under `operation`. */
  async function counted(operation: string) {
    const value = async (name: string, labels: Record<string, string>) =>
      (await metrics.registry.getSingleMetric(name)?.get())?.values.find((entry) =>
        Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
      )?.value ?? 0;
    const outcome = (outcome: string) => value('kupa_commands_total', { command: operation, outcome });
    return {
      committed: await outcome('committed'),
      unchanged: await outcome('unchanged'),
      rejected: await outcome('rejected'),
      failed: await outcome('failed'),
      conflicts: await value('kupa_command_conflicts_total', { command: operation }),
      retries: await value('kupa_command_retries_total', { command: operation }),
    };
  }

  it('loads, decides and appends under the lock: twenty parallel commands each see the one before', async () => {
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => add(id, 1)));
    expect([...results.map((outcome) => outcome.result)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect(await store.streamVersion(`counter-${id}`)).toBe(20);
    const [side] = await dataSource.query('SELECT total FROM side_rows WHERE id = $1', [id]);
    expect(side.total).toBe(20);
  });

  it('a rejection writes neither events nor side rows', async () => {
    const id = randomUUID();
    await add(id, 90);
    await expect(add(id, 20)).rejects.toMatchObject({ code: 'error.insufficient.balance' });
    await expect(add(id, 0)).rejects.toBeInstanceOf(DomainError);
    expect(await store.streamVersion(`counter-${id}`)).toBe(1);
    const [side] = await dataSource.query('SELECT total FROM side_rows WHERE id = $1', [id]);
    expect(side.total).toBe(90);
  });

  it('appends to several streams atomically, and to none of them when one decision fails', async () => {
    const [left, right] = [randomUUID(), randomUUID()];
    const both = (by: number) =>
      pipeline.run({
        context: systemContext(),
        streams: { left: counters.ref(left), right: counters.ref(right) },
        decide: (loaded) => ({
          events: { left: increment(by, loaded.left.state), right: increment(by * 2, loaded.right.state) },
          result: null,
        }),
      });
    const outcome = await both(10);
    expect(outcome.events.map((event) => event.streamId).sort()).toEqual(
      [`counter-${left}`, `counter-${right}`].sort(),
    );
    await expect(both(45)).rejects.toMatchObject({ code: 'error.insufficient.balance' });
    expect(await store.streamVersion(`counter-${left}`)).toBe(1);
    expect(await store.streamVersion(`counter-${right}`)).toBe(1);
  });

  it('stamps the instant and metadata once the streams are locked, with the causation id', async () => {
    const id = randomUUID();
    clock.set(new Date('2026-05-02T10:00:00Z'));
    const outcome = await pipeline.run({
      context: systemContext('corr-1'),
      causationId: '4711',
      streams: { counter: counters.ref(id) },
      decide: ({ counter }, stamp) => {
        expect(stamp.at.toISOString()).toBe('2026-05-02T10:00:00.000Z');
        return { events: { counter: increment(1, counter.state) }, result: null };
      },
    });
    expect(outcome.events[0].metadata).toMatchObject({
      correlationId: 'corr-1',
      causationId: '4711',
      occurredAt: '2026-05-02T10:00:00.000Z',
    });
  });

  it('decides nothing: no event, no version change', async () => {
    const id = randomUUID();
    const outcome = await pipeline.run({
      context: systemContext(),
      streams: { counter: counters.ref(id) },
      decide: () => ({ events: { counter: [] }, result: 'nothing' }),
    });
    expect(outcome).toEqual({ result: 'nothing', events: [] });
    expect(await store.streamVersion(`counter-${id}`)).toBe(0);
  });

  describe('version conflicts', () => {
    /** A loader that reports a stale version a given number of times, as a writer that did not lock would cause. */
    function staleKind(staleLoads: number): { kind: StreamKind<CounterState, CounterEvent>; loads: () => number } {
      let loads = 0;
      const loader: StreamLoader<CounterState> = {
        async load(tx, streamIds) {
          loads += 1;
          const map = new Map();
          for (const streamId of streamIds) {
            const version = await tx.streamVersion(streamId);
            map.set(streamId, { streamId, state: { total: 0 }, version: loads <= staleLoads ? version - 1 : version });
          }
          return map;
        },
      };
      return { kind: { ref: (id) => ({ streamId: `counter-${id}`, loader }) }, loads: () => loads };
    }

    /** Runs under its own operation name, so that the metrics of each case can be read apart. */
    async function runWith(kind: StreamKind<CounterState, CounterEvent>, id: string, operation: string) {
      return withLogContext({ operation }, () =>
        pipeline.run({
          context: systemContext(),
          streams: { counter: kind.ref(id) },
          decide: () => ({
            events: { counter: [{ type: 'Incremented', data: { by: 1 } } as CounterEvent] },
            result: null,
          }),
        }),
      );
    }

    it('decides again from fresh state within the budget, counting the conflicts and retries', async () => {
      const id = randomUUID();
      await add(id, 1);
      const stale = staleKind(VERSION_CONFLICT_ATTEMPTS - 1);
      await runWith(stale.kind, id, 'test retried');
      expect(stale.loads()).toBe(VERSION_CONFLICT_ATTEMPTS);
      expect(await store.streamVersion(`counter-${id}`)).toBe(2);
      expect(await counted('test retried')).toEqual({
        committed: 1,
        unchanged: 0,
        rejected: 0,
        failed: 0,
        conflicts: VERSION_CONFLICT_ATTEMPTS - 1,
        retries: VERSION_CONFLICT_ATTEMPTS - 1,
      });
    });

    it('gives up after the budget with the conflict, counted as failed', async () => {
      const id = randomUUID();
      await add(id, 1);
      const stale = staleKind(VERSION_CONFLICT_ATTEMPTS);
      await expect(runWith(stale.kind, id, 'test given up')).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect(stale.loads()).toBe(VERSION_CONFLICT_ATTEMPTS);
      expect(await store.streamVersion(`counter-${id}`)).toBe(1);
      expect(await counted('test given up')).toEqual({
        committed: 0,
        unchanged: 0,
        rejected: 0,
        failed: 1,
        conflicts: VERSION_CONFLICT_ATTEMPTS,
        retries: VERSION_CONFLICT_ATTEMPTS - 1,
      });
    });
  });

  it('counts each command by how it ended, under the operation that ran it', async () => {
    const id = randomUUID();
    await withLogContext({ operation: 'test outcomes' }, async () => {
      await add(id, 5);
      await expect(add(id, 0)).rejects.toBeInstanceOf(DomainError);
      await pipeline.run({
        context: systemContext(),
        streams: { counter: counters.ref(id) },
        decide: () => ({ events: {}, result: null }),
      });
    });
    expect(await counted('test outcomes')).toEqual({
      committed: 1,
      unchanged: 1,
      rejected: 1,
      failed: 0,
      conflicts: 0,
      retries: 0,
    });
    const durations = ((await metrics.registry.getSingleMetric('kupa_command_duration_seconds')?.get())?.values ??
      []) as { metricName?: string; labels: Record<string, unknown>; value: number }[];
    const timed = durations.find(
      (entry) => entry.metricName === 'kupa_command_duration_seconds_count' && entry.labels.command === 'test outcomes',
    );
    expect(timed?.value).toBe(3);
  });

  it('decides on a stream named to be read while other commands read it too, and never appends to it', async () => {
    const [limit, left, right] = [randomUUID(), randomUUID(), randomUUID()];
    await add(limit, 7);
    // Two commands read the same stream and append to one stream each; their transactions overlap in the store
    // (the first holds its locks until the second has decided), which a lock for writing would not allow.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const copy = (target: string, wait: boolean) =>
      pipeline.run({
        context: systemContext(),
        streams: { limit: counters.lockedForReading(limit), target: counters.ref(target) },
        prepare: async () => {
          if (wait) await released;
        },
        decide: ({ limit: read, target: written }) => ({
          events: { target: increment(read.state.total, written.state) },
          result: read.version,
        }),
      });
    const first = copy(left, true);
    const second = await copy(right, false);
    release();
    expect([(await first).result, second.result]).toEqual([1, 1]);
    expect(await store.streamVersion(`counter-${limit}`)).toBe(1);
    expect((await store.readStream(`counter-${right}`)).map((event) => event.data)).toEqual([{ by: 7 }]);

    // A decision that gives events to a stream it named to read is a bug: nothing is written.
    await expect(
      pipeline.run({
        context: systemContext(),
        streams: { limit: counters.lockedForReading(limit), target: counters.ref(left) },
        // The types forbid it (a read ref takes no events); the cast stands for a bug that got past them.
        decide: () => ({
          events: { limit: increment(1, { total: 0 }) as never[], target: increment(1, { total: 0 }) },
          result: null,
        }),
      }),
    ).rejects.toThrow(/appends to limit, which it named to read only/);
    expect(await store.streamVersion(`counter-${left}`)).toBe(1);
    expect(await store.streamVersion(`counter-${limit}`)).toBe(1);
  });

  it('refuses a command that names one stream twice (a bug, not a rejection)', async () => {
    const id = randomUUID();
    await expect(
      pipeline.run({
        context: systemContext(),
        streams: { a: counters.ref(id), b: counters.ref(id) },
        decide: () => ({ events: {}, result: null }),
      }),
    ).rejects.toThrow(/names a stream twice/);
  });

  it('feeds inline projections with the stamped metadata', () => {
    expect(projected.length).toBeGreaterThan(0);
    expect(projected.every((row) => row.occurredAt.startsWith('2026-05-0'))).toBe(true);
  });
});
