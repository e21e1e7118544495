import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventMetadata } from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { platformMigrations } from '../database/migrations';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { ProcessorRunner, type Processor } from '../projections/processor-runner';
import { WrongExpectedVersionError } from './errors';
import { chainHash } from './event-hash';
import { type GlobalCheckpoint, type InlineProjection, type RecordedEvent, START_CHECKPOINT } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { verifyStreamHashes } from './hash-chain-verifier';
import { PostgresEventStore } from './postgres-event-store';

/** Enough connections for the widest parallel test below (crossing transfers) plus processor lock connections. */
const POOL_SIZE = 40;
const PARALLEL_CALLERS = 20;
const CROSSING_ROUNDS = 10;
const WAIT_TIMEOUT_MS = 20_000;

const metadata: EventMetadata = {
  actor: { id: 'USER-00000000-0000-0000-0000-000000000000', email: null, role: 'SYSTEM', name: 'SYSTEM' },
  correlationId: '6c1b5c1e-0000-4000-8000-000000000001',
  causationId: null,
  occurredAt: '2026-01-01T00:00:00.000Z',
  ip: null,
};

function streamOf(category: string): string {
  return `${category}-${randomUUID()}`;
}

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(20);
  }
}

/** A gate a test opens by hand: the projection below waits on it while its transaction stays open. */
function gate(): { entered: Promise<void>; enter: () => void; open: () => void; opened: Promise<void> } {
  let enter = (): void => undefined;
  let open = (): void => undefined;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { entered, enter, open, opened };
}

describe('PostgresEventStore on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let eventTypes: EventTypeRegistry;
  let projections: InlineProjectionRegistry;
  let store: PostgresEventStore;
  let slowGate: ReturnType<typeof gate> | null = null;

  const rowsProjection: InlineProjection = {
    name: 'test-rows',
    handles: ['Added'],
    async apply(events, manager) {
      for (const event of events) {
        await manager.query('INSERT INTO test_rows (stream_id, stream_version) VALUES ($1, $2)', [
          event.streamId,
          event.streamVersion,
        ]);
      }
    },
    async reset(manager) {
      await manager.query('DELETE FROM test_rows');
    },
  };
  const explodingProjection: InlineProjection = {
    name: 'test-exploding',
    handles: ['Added'],
    async apply(events) {
      if (events.some((event) => (event.data as { explode?: boolean }).explode)) throw new Error('projection failed');
    },
    async reset() {},
  };
  const slowProjection: InlineProjection = {
    name: 'test-slow',
    handles: ['SlowAdded'],
    async apply() {
      if (!slowGate) return;
      slowGate.enter();
      await slowGate.opened;
    },
    async reset() {},
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource({
      type: 'postgres',
      url: database.url,
      migrations: platformMigrations,
      extra: { max: POOL_SIZE },
    });
    await dataSource.initialize();
    await dataSource.runMigrations();
    await dataSource.query(
      'CREATE TABLE test_rows (stream_id text, stream_version int, PRIMARY KEY (stream_id, stream_version))',
    );
    eventTypes = new EventTypeRegistry();
    projections = new InlineProjectionRegistry(dataSource, eventTypes);
    projections.register(rowsProjection);
    projections.register(explodingProjection);
    projections.register(slowProjection);
    store = new PostgresEventStore(dataSource, projections, eventTypes);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  async function projectedRows(streamIds: string[]): Promise<number> {
    const rows: { count: number }[] = await dataSource.query(
      'SELECT count(*)::int AS count FROM test_rows WHERE stream_id = ANY($1)',
      [streamIds],
    );
    return rows[0].count;
  }

  async function eventCount(streamIds: string[]): Promise<number> {
    const rows: { count: number }[] = await dataSource.query(
      'SELECT count(*)::int AS count FROM events WHERE stream_id = ANY($1)',
      [streamIds],
    );
    return rows[0].count;
  }

  describe('append', () => {
    it('appends to a new stream at expected 0, then at expected 1, chaining hashes and running projections', async () => {
      const streamId = streamOf('wallet');
      const first = await store.append(
        [{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: { n: 1 } }] }],
        metadata,
      );
      const second = await store.append(
        [
          {
            streamId,
            expectedVersion: 1,
            events: [
              { type: 'Added', data: { n: 2 } },
              { type: 'Added', data: { n: 3, at: new Date('2026-01-01T00:00:00Z') } },
            ],
          },
        ],
        metadata,
      );
      expect(first.streamVersions).toEqual({ [streamId]: 1 });
      expect(second.streamVersions).toEqual({ [streamId]: 3 });
      expect(second.events.map((event) => event.streamVersion)).toEqual([2, 3]);
      expect(BigInt(second.events[0].globalPosition)).toBeGreaterThan(BigInt(first.events[0].globalPosition));
      expect(BigInt(second.events[1].globalPosition)).toBeGreaterThan(BigInt(second.events[0].globalPosition));
      expect(second.events[0].transactionId).toBe(second.events[1].transactionId);
      expect(second.events[0].transactionId).not.toBe(first.events[0].transactionId);
      expect(second.events[0].recordedAt).toBeInstanceOf(Date);

      const read = await store.readStream(streamId);
      expect(read.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3, at: '2026-01-01T00:00:00.000Z' }]);
      expect(read[2]).toEqual(second.events[1]);
      expect(read[0].metadata).toEqual(metadata);
      expect(read[1].hash).toBe(chainHash(read[0].hash, { ...read[1], metadata: { ...metadata, schemaVersion: 1 } }));
      expect(await store.readStream(streamId, { fromVersion: 3 })).toHaveLength(1);
      expect(await store.streamVersion(streamId)).toBe(3);
      expect(await store.streamVersion(streamOf('never'))).toBe(0);
      expect(await projectedRows([streamId])).toBe(3);
    });

    it('refuses a wrong expected version and writes nothing', async () => {
      const streamId = streamOf('wallet');
      await store.append([{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      const refused = store.append([{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedVersionError);
      await expect(refused).rejects.toMatchObject({ streamId, expectedVersion: 0, actualVersion: 1 });
      await expect(
        store.append(
          [{ streamId: streamOf('new'), expectedVersion: 2, events: [{ type: 'Added', data: {} }] }],
          metadata,
        ),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect(await store.streamVersion(streamId)).toBe(1);
      expect(await eventCount([streamId])).toBe(1);
      expect(await projectedRows([streamId])).toBe(1);
    });

    it('lets exactly one of many concurrent appends at the same expected version win', async () => {
      const streamId = streamOf('wallet');
      const outcomes = await Promise.allSettled(
        Array.from({ length: PARALLEL_CALLERS }, (_, index) =>
          store.append([{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: { index } }] }], metadata),
        ),
      );
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(PARALLEL_CALLERS - 1);
      for (const outcome of lost) expect(outcome.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect(await eventCount([streamId])).toBe(1);
    });

    it('appends to several streams atomically: a wrong version in any stream writes nothing anywhere', async () => {
      const left = streamOf('wallet');
      const right = streamOf('wallet');
      await store.append([{ streamId: right, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      const refused = store.append(
        [
          { streamId: left, expectedVersion: 0, events: [{ type: 'Added', data: {} }] },
          { streamId: right, expectedVersion: 5, events: [{ type: 'Added', data: {} }] },
        ],
        metadata,
      );
      await expect(refused).rejects.toMatchObject({ streamId: right, actualVersion: 1 });
      expect(await eventCount([left, right])).toBe(1);
      expect(await projectedRows([left, right])).toBe(1);
      expect(await store.streamVersion(left)).toBe(0);
    });

    it('appends to several streams atomically: a throwing projection writes no events and no projection rows', async () => {
      const left = streamOf('wallet');
      const right = streamOf('wallet');
      const refused = store.append(
        [
          { streamId: left, expectedVersion: 0, events: [{ type: 'Added', data: {} }] },
          { streamId: right, expectedVersion: 'any', events: [{ type: 'Added', data: { explode: true } }] },
        ],
        metadata,
      );
      await expect(refused).rejects.toThrow('projection failed');
      expect(await eventCount([left, right])).toBe(0);
      expect(await projectedRows([left, right])).toBe(0);
      const streams: unknown[] = await dataSource.query('SELECT 1 FROM streams WHERE stream_id = ANY($1)', [
        [left, right],
      ]);
      expect(streams).toHaveLength(0);
    });

    it('appends nothing and runs no projection when every stream has no events', async () => {
      const streamId = streamOf('wallet');
      const result = await store.append([{ streamId, expectedVersion: 0, events: [] }], metadata);
      expect(result).toEqual({ events: [], streamVersions: { [streamId]: 0 } });
      expect(await eventCount([streamId])).toBe(0);
    });
  });

  describe('transact', () => {
    it('runs 20 parallel commands on one stream one after the other: all succeed, versions gap-free', async () => {
      const streamId = streamOf('wallet');
      const results = await Promise.all(
        Array.from({ length: PARALLEL_CALLERS }, (_, index) =>
          store.transact([streamId], metadata, async (tx) => {
            const version = await tx.streamVersion(streamId);
            const history = await tx.readStream(streamId);
            expect(history).toHaveLength(version);
            return {
              appends: [{ streamId, expectedVersion: version, events: [{ type: 'Added', data: { index } }] }],
              result: version,
            };
          }),
        ),
      );
      expect(results.map((result) => result.result).sort((a, b) => a - b)).toEqual(
        Array.from({ length: PARALLEL_CALLERS }, (_, index) => index),
      );
      const versions = (await store.readStream(streamId)).map((event) => event.streamVersion);
      expect(versions).toEqual(Array.from({ length: PARALLEL_CALLERS }, (_, index) => index + 1));
    });

    it('never deadlocks on crossing commands A,B and B,A (no retries allowed)', async () => {
      const retries: unknown[] = [];
      const strict = new PostgresEventStore(dataSource, projections, eventTypes, {
        maxTransactionAttempts: 1,
        onRetry: (error) => retries.push(error),
      });
      const a = streamOf('wallet');
      const b = streamOf('wallet');
      const transfer = (from: string, to: string): Promise<unknown> =>
        strict.transact([from, to], metadata, async (tx) => {
          const fromVersion = await tx.streamVersion(from);
          const toVersion = await tx.streamVersion(to);
          return {
            appends: [
              { streamId: from, expectedVersion: fromVersion, events: [{ type: 'Debited', data: { to } }] },
              { streamId: to, expectedVersion: toVersion, events: [{ type: 'Credited', data: { from } }] },
            ],
            result: null,
          };
        });
      for (let round = 0; round < CROSSING_ROUNDS; round += 1) {
        await Promise.all(
          Array.from({ length: PARALLEL_CALLERS }, (_, index) => (index % 2 === 0 ? transfer(a, b) : transfer(b, a))),
        );
      }
      expect(retries).toEqual([]);
      expect(await store.streamVersion(a)).toBe(CROSSING_ROUNDS * PARALLEL_CALLERS);
      expect(await store.streamVersion(b)).toBe(CROSSING_ROUNDS * PARALLEL_CALLERS);
    });

    it('rolls back the side writes of work that throws and the append of a stream it did not lock up front', async () => {
      const streamId = streamOf('wallet');
      const extra = streamOf('payment');
      const outcome = await store.transact([streamId], metadata, async (tx) => {
        await tx.manager.query('INSERT INTO test_rows (stream_id, stream_version) VALUES ($1, 0)', [streamId]);
        return {
          appends: [
            { streamId, expectedVersion: 0, events: [{ type: 'Debited', data: {} }] },
            { streamId: extra, expectedVersion: 0, events: [{ type: 'Opened', data: {} }] },
          ],
          result: 'done',
        };
      });
      expect(outcome.result).toBe('done');
      expect(outcome.append.streamVersions).toEqual({ [streamId]: 1, [extra]: 1 });
      expect(await projectedRows([streamId])).toBe(1);

      await expect(
        store.transact([streamId], metadata, async (tx) => {
          await tx.manager.query('INSERT INTO test_rows (stream_id, stream_version) VALUES ($1, 99)', [streamId]);
          throw new Error('work failed');
        }),
      ).rejects.toThrow('work failed');
      expect(await projectedRows([streamId])).toBe(1);
    });
  });

  describe('readAll', () => {
    async function readToEnd(
      from: GlobalCheckpoint,
    ): Promise<{ events: RecordedEvent[]; checkpoint: GlobalCheckpoint }> {
      const events: RecordedEvent[] = [];
      let checkpoint = from;
      for (;;) {
        const batch = await store.readAll(checkpoint, 100);
        if (batch.length === 0) return { events, checkpoint };
        events.push(...batch);
        const last = batch[batch.length - 1];
        checkpoint = { transactionId: last.transactionId, globalPosition: last.globalPosition };
      }
    }

    it('does not pass an open transaction that took a lower position, and returns it once committed', async () => {
      const slowStream = streamOf('slow');
      const fastStream = streamOf('fast');
      await store.append(
        [{ streamId: streamOf('before'), expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      const { checkpoint } = await eventually(
        () => readToEnd(START_CHECKPOINT),
        (read) => read.events.length > 0,
        'earlier events',
      );

      slowGate = gate();
      const slow = store.append(
        [{ streamId: slowStream, expectedVersion: 0, events: [{ type: 'SlowAdded', data: {} }] }],
        metadata,
      );
      await slowGate.entered;
      const fast = await store.append(
        [{ streamId: fastStream, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      const pending: { global_position: string }[] = await dataSource.query(
        'SELECT global_position::text AS global_position FROM events WHERE stream_id = $1',
        [slowStream],
      );
      expect(pending).toHaveLength(0);

      const whileOpen = await readToEnd(checkpoint);
      expect(whileOpen.events.map((event) => event.streamId)).not.toContain(fastStream);

      slowGate.open();
      const slowEvents = (await slow).events;
      slowGate = null;
      expect(BigInt(slowEvents[0].globalPosition)).toBeLessThan(BigInt(fast.events[0].globalPosition));
      const afterCommit = await eventually(
        () => readToEnd(whileOpen.checkpoint),
        (read) => read.events.some((event) => event.streamId === fastStream),
        'the committed events',
      );
      const streams = afterCommit.events.map((event) => event.streamId);
      expect(streams).toContain(slowStream);
      expect(streams.indexOf(slowStream)).toBeLessThan(streams.indexOf(fastStream));
    });

    it('returns a late commit with a lower position after a reader passed a higher one (nothing skipped)', async () => {
      const early = streamOf('early');
      const slowStream = streamOf('slow');
      const { checkpoint } = await readToEnd(START_CHECKPOINT);

      // A second real connection takes its transaction id first, so its later insert gets a higher position but a
      // lower transaction id than the slow append below.
      const other = dataSource.createQueryRunner();
      await other.connect();
      await other.startTransaction();
      await other.query('SELECT pg_current_xact_id()');

      slowGate = gate();
      const slow = store.append(
        [{ streamId: slowStream, expectedVersion: 0, events: [{ type: 'SlowAdded', data: {} }] }],
        metadata,
      );
      await slowGate.entered;

      const data = { raw: true };
      const stored = { ...metadata, schemaVersion: 1 };
      const hash = chainHash(null, { streamId: early, streamVersion: 1, type: 'Raw', data, metadata: stored });
      await other.query('INSERT INTO streams (stream_id, version, last_hash) VALUES ($1, 1, $2)', [early, hash]);
      await other.query(
        "INSERT INTO events (stream_id, stream_version, type, data, metadata, hash) VALUES ($1, 1, 'Raw', $2, $3, $4)",
        [early, JSON.stringify(data), JSON.stringify(stored), hash],
      );
      await other.commitTransaction();
      await other.release();

      const passed = await eventually(
        () => readToEnd(checkpoint),
        (read) => read.events.some((event) => event.streamId === early),
        'the early transaction',
      );
      expect(passed.events.map((event) => event.streamId)).not.toContain(slowStream);

      slowGate.open();
      const slowEvent = (await slow).events[0];
      slowGate = null;
      const earlyEvent = passed.events.find((event) => event.streamId === early);
      expect(BigInt(slowEvent.globalPosition)).toBeLessThan(BigInt(earlyEvent?.globalPosition ?? '0'));
      const resumed = await eventually(
        () => readToEnd(passed.checkpoint),
        (read) => read.events.some((event) => event.streamId === slowStream),
        'the slow transaction',
      );
      expect(resumed.events.filter((event) => event.streamId === slowStream)).toHaveLength(1);
    });
  });

  describe('hash chain verification', () => {
    it('finds an intact store intact, then names the stream and version of a hand-edited event and of a gap', async () => {
      const tampered = streamOf('tampered');
      const gapped = streamOf('gapped');
      for (const streamId of [tampered, gapped]) {
        await store.append(
          [
            {
              streamId,
              expectedVersion: 0,
              events: [1, 2, 3].map((n) => ({ type: 'Added', data: { amountMinor: n * 100 } })),
            },
          ],
          metadata,
        );
      }
      const before = await verifyStreamHashes(dataSource);
      expect(before.problems).toEqual([]);
      expect(before.ok).toBe(true);
      expect(before.eventsChecked).toBeGreaterThanOrEqual(6);

      await dataSource.query(
        `UPDATE events SET data = '{"amountMinor": 99900}' WHERE stream_id = $1 AND stream_version = 2`,
        [tampered],
      );
      await dataSource.query('DELETE FROM events WHERE stream_id = $1 AND stream_version = 2', [gapped]);
      const after = await verifyStreamHashes(dataSource);
      expect(after.ok).toBe(false);
      expect(after.problems).toHaveLength(2);
      expect(after.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ streamId: tampered, streamVersion: 2, kind: 'hash-mismatch' }),
          expect.objectContaining({ streamId: gapped, streamVersion: 2, kind: 'version-gap' }),
        ]),
      );
      expect(after.problems.map((problem) => problem.streamId).sort()).toEqual([gapped, tampered].sort());
      await dataSource.query('DELETE FROM events WHERE stream_id = ANY($1)', [[tampered, gapped]]);
      await dataSource.query('DELETE FROM streams WHERE stream_id = ANY($1)', [[tampered, gapped]]);
    });
  });

  describe('event types', () => {
    it('upcasts events stored at an older schema version on every read, leaving the stored event as hashed', async () => {
      const streamId = streamOf('plan');
      const oldBuild = new PostgresEventStore(
        dataSource,
        new InlineProjectionRegistry(dataSource, new EventTypeRegistry()),
        new EventTypeRegistry(),
      );
      await oldBuild.append(
        [{ streamId, expectedVersion: 0, events: [{ type: 'PriceSet', data: { amount: 12.5 } }] }],
        metadata,
      );
      eventTypes.register('PriceSet', {
        schemaVersion: 2,
        upcasters: { 1: (data) => ({ amountMinor: Math.round((data as { amount: number }).amount * 100) }) },
      });
      await store.append(
        [{ streamId, expectedVersion: 1, events: [{ type: 'PriceSet', data: { amountMinor: 700 } }] }],
        metadata,
      );

      const read = await store.readStream(streamId);
      expect(read.map((event) => [event.data, event.schemaVersion])).toEqual([
        [{ amountMinor: 1250 }, 2],
        [{ amountMinor: 700 }, 2],
      ]);
      const all = await eventually(
        () => store.readAll(START_CHECKPOINT, 100_000),
        (events) => events.some((event) => event.streamId === streamId && event.streamVersion === 2),
        'both',
      );
      expect(all.filter((event) => event.streamId === streamId).map((event) => event.data)).toEqual([
        { amountMinor: 1250 },
        { amountMinor: 700 },
      ]);
      const raw: { data: unknown; metadata: { schemaVersion: number } }[] = await dataSource.query(
        'SELECT data, metadata FROM events WHERE stream_id = $1 ORDER BY stream_version',
        [streamId],
      );
      expect(raw.map((row) => [row.data, row.metadata.schemaVersion])).toEqual([
        [{ amount: 12.5 }, 1],
        [{ amountMinor: 700 }, 2],
      ]);
      expect(
        (await verifyStreamHashes(dataSource)).problems.filter((problem) => problem.streamId === streamId),
      ).toEqual([]);
    });
  });

  describe('inline projection rebuild', () => {
    it('resets a read model and replays every event into it', async () => {
      const streamId = streamOf('wallet');
      await store.append(
        [
          {
            streamId,
            expectedVersion: 0,
            events: [
              { type: 'Added', data: {} },
              { type: 'Added', data: {} },
            ],
          },
        ],
        metadata,
      );
      const expected: { count: number }[] = await dataSource.query(
        "SELECT count(*)::int AS count FROM events WHERE type = 'Added'",
      );
      await dataSource.query('DELETE FROM test_rows WHERE stream_id = $1', [streamId]);
      await dataSource.query("INSERT INTO test_rows VALUES ('stray', 1)");
      const report = await projections.rebuild('test-rows');
      expect(report.projections).toEqual(['test-rows']);
      const rows: { count: number }[] = await dataSource.query('SELECT count(*)::int AS count FROM test_rows');
      expect(rows[0].count).toBe(expected[0].count);
      expect(await projectedRows([streamId])).toBe(2);
      expect(await projectedRows(['stray'])).toBe(0);
    });
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
      const streamId = streamOf('bulk');
      await store.append(
        [
          {
            streamId,
            expectedVersion: 0,
            events: Array.from({ length: 60 }, (_, n) => ({ type: 'Bulk', data: { n } })),
          },
        ],
        metadata,
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
      const last: { global_position: string }[] = await dataSource.query(
        'SELECT global_position::text AS global_position FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
      );
      expect(checkpoint?.globalPosition).toBe(last[0].global_position);
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
