import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventMetadata } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { platformMigrations } from '../database/migrations';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import type { EventStore, InlineProjection } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';

/*
 * The event store's contract spec is split by topic (append, transact, readAll, hash chain, event types, rebuild,
 * processors); every part runs on its own database set up here, with the same test projections.
 */

export const POOL_SIZE = 40;
export const PARALLEL_CALLERS = 20;
export const CROSSING_ROUNDS = 10;
export const WAIT_TIMEOUT_MS = 20_000;

export const metadata: EventMetadata = {
  actor: { id: 'USER-00000000-0000-0000-0000-000000000000', email: null, role: 'SYSTEM', name: 'SYSTEM' },
  correlationId: '6c1b5c1e-0000-4000-8000-000000000001',
  causationId: null,
  occurredAt: '2026-01-01T00:00:00.000Z',
  ip: null,
};

export function streamOf(category: string): string {
  return `${category}-${randomUUID()}`;
}

export async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(20);
  }
}

/** A gate a test opens by hand: the projection below waits on it while its transaction stays open. */
export function gate(): { entered: Promise<void>; enter: () => void; open: () => void; opened: Promise<void> } {
  let enter = (): void => undefined;
  let open = (): void => undefined;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { entered, enter, open, opened };
}

export type Gate = ReturnType<typeof gate>;

export interface EventStoreEnv {
  dataSource: DataSource;
  eventTypes: EventTypeRegistry;
  projections: InlineProjectionRegistry;
  store: PostgresEventStore;
  /** While set, the `SlowAdded` projection waits on it with its transaction open. */
  slowGate: Gate | null;
  projectedRows(streamIds: string[]): Promise<number>;
  eventCount(streamIds: string[]): Promise<number>;
}

/**
 * Registers the hooks that give a spec file a fresh database with the event store schema, a `test_rows` projection,
 * one that fails on `{explode: true}` and one that can be held open; the returned object is filled in `beforeAll`.
 */
export function useEventStore(): EventStoreEnv {
  let database: TestDatabase;
  const env = { slowGate: null } as EventStoreEnv;

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
      const held = env.slowGate;
      if (!held) return;
      held.enter();
      await held.opened;
    },
    async reset() {},
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const dataSource = new DataSource({
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
    const eventTypes = new EventTypeRegistry();
    const projections = new InlineProjectionRegistry(dataSource, eventTypes);
    projections.register(rowsProjection);
    projections.register(explodingProjection);
    projections.register(slowProjection);
    Object.assign(env, {
      dataSource,
      eventTypes,
      projections,
      store: new PostgresEventStore(dataSource, projections, eventTypes),
    });
  });

  afterAll(async () => {
    await env.dataSource.destroy();
    await database.drop();
  });

  env.projectedRows = async (streamIds: string[]): Promise<number> => {
    const rows: { count: number }[] = await env.dataSource.query(
      'SELECT count(*)::int AS count FROM test_rows WHERE stream_id = ANY($1)',
      [streamIds],
    );
    return rows[0].count;
  };

  env.eventCount = async (streamIds: string[]): Promise<number> => {
    const rows: { count: number }[] = await env.dataSource.query(
      'SELECT count(*)::int AS count FROM events WHERE stream_id = ANY($1)',
      [streamIds],
    );
    return rows[0].count;
  };
  return env;
}

/**
 * Appends versions 2 and 3 of `shared`, which holds version 1, so that version 3's transaction takes its transaction
 * id first: it locks `laterStream` and waits at a gate while version 2 commits, then appends version 3 beside
 * `laterStream`'s first event. Read in transaction-id order, version 3 would come before version 2.
 */
export async function appendLaterVersionFirst(
  store: EventStore,
  shared: string,
  laterStream: string,
  type: string,
): Promise<void> {
  const later = gate();
  const laterAppend = store.transact([laterStream], metadata, async () => {
    later.enter();
    await later.opened;
    return {
      result: null,
      appends: [
        { streamId: laterStream, expectedVersion: 0, events: [{ type, data: { n: 1 } }] },
        { streamId: shared, expectedVersion: 2, events: [{ type, data: { n: 3 } }] },
      ],
    };
  });
  await later.entered;
  await store.append([{ streamId: shared, expectedVersion: 1, events: [{ type, data: { n: 2 } }] }], metadata);
  later.open();
  await laterAppend;
}
