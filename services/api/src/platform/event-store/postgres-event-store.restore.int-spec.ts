import { DataSource } from 'typeorm';
import { copyTestDatabase, createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { platformMigrations } from '../database/migrations';
import { toPublishedEvent } from '../kafka/published-event';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { metadata, streamOf } from './event-store.fixtures';
import { START_CHECKPOINT } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';

/** A store on its own connection pool, as a process started on `database` would have. */
async function openStore(database: TestDatabase, migrate = false) {
  const dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: platformMigrations });
  await dataSource.initialize();
  if (migrate) await dataSource.runMigrations();
  const eventTypes = new EventTypeRegistry();
  const store = new PostgresEventStore(dataSource, new InlineProjectionRegistry(dataSource, eventTypes), eventTypes);
  return { dataSource, store };
}

const added = (streamId: string, n: number) => [
  { streamId, expectedVersion: 'any' as const, events: [{ type: 'Added', data: { n } }] },
];

describe('PostgresEventStore on PostgreSQL: a restored backup', () => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('gives the events after a restore new ids, never those of events lost with the newer history', async () => {
    const original = await createTestDatabase();
    databases.push(original);
    const before = await openStore(original, true);
    const stream = streamOf('wallet');
    for (let n = 1; n <= 3; n++) await before.store.append(added(stream, n), metadata);
    const backedUp = await before.store.readAll(START_CHECKPOINT, 100);
    await before.dataSource.destroy();

    // The backup is taken here; the running site goes on and publishes an event the restore will lose.
    const restored = await copyTestDatabase(original);
    databases.push(restored);
    const running = await openStore(original);
    const lost = (await running.store.append(added(stream, 4), metadata)).events[0];
    await running.dataSource.destroy();

    const afterRestore = await openStore(restored);
    try {
      const fresh = (await afterRestore.store.append(added(stream, 4), metadata)).events[0];
      // The position is handed out again; the id, which consumers dedupe by, is not.
      expect(fresh.globalPosition).toBe(lost.globalPosition);
      expect(fresh.eventId).not.toBe(lost.eventId);
      expect(toPublishedEvent(fresh).id).not.toBe(toPublishedEvent(lost).id);
      const backedUpIds = new Set(backedUp.map((event) => event.eventId));
      expect(backedUpIds.has(fresh.eventId)).toBe(false);

      // Processors of the restored copy go on from their checkpoints: the new event reads after the old ones.
      const last = backedUp[backedUp.length - 1];
      const next = await afterRestore.store.readAll({ commitPosition: last.commitPosition }, 100);
      expect(next.map((event) => event.eventId)).toEqual([fresh.eventId]);
    } finally {
      await afterRestore.dataSource.destroy();
    }
  });
});
