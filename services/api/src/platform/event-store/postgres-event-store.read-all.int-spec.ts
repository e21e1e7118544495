import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test-support/test-database';
import { chainHash } from './event-hash';
import { type CommittedEvent, type GlobalCheckpoint, START_CHECKPOINT } from './event-store.port';
import type { PostgresEventStore } from './postgres-event-store';
import { appendLaterVersionFirst, eventually, gate, metadata, streamOf, useEventStore } from './event-store.fixtures';

describe('PostgresEventStore on PostgreSQL: readAll in commit order', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;

  beforeAll(() => {
    ({ dataSource, store } = env);
  });

  describe('readAll', () => {
    async function readToEnd(
      from: GlobalCheckpoint,
    ): Promise<{ events: CommittedEvent[]; checkpoint: GlobalCheckpoint }> {
      const events: CommittedEvent[] = [];
      let checkpoint = from;
      for (;;) {
        const batch = await store.readAll(checkpoint, 100);
        if (batch.length === 0) return { events, checkpoint };
        events.push(...batch);
        const last = batch[batch.length - 1];
        checkpoint = { commitPosition: last.commitPosition };
      }
    }

    it('reads what committed past an open append that took a lower position, and that one once it commits', async () => {
      const slowStream = streamOf('slow');
      const fastStream = streamOf('fast');
      await store.append(
        [{ streamId: streamOf('before'), expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      const { checkpoint } = await readToEnd(START_CHECKPOINT);

      env.slowGate = gate();
      const slow = store.append(
        [{ streamId: slowStream, expectedVersion: 0, events: [{ type: 'SlowAdded', data: {} }] }],
        metadata,
      );
      await env.slowGate.entered;
      const fast = await store.append(
        [{ streamId: fastStream, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );

      // The open append holds nothing back: what committed is read at once, in the order it committed.
      const whileOpen = await readToEnd(checkpoint);
      expect(whileOpen.events.map((event) => event.streamId)).toEqual([fastStream]);

      env.slowGate.open();
      const slowEvents = (await slow).events;
      env.slowGate = null;
      expect(BigInt(slowEvents[0].globalPosition)).toBeLessThan(BigInt(fast.events[0].globalPosition));
      const afterCommit = await readToEnd(whileOpen.checkpoint);
      expect(afterCommit.events.map((event) => event.streamId)).toEqual([slowStream]);
      expect(BigInt(afterCommit.events[0].commitPosition)).toBeGreaterThan(BigInt(whileOpen.events[0].commitPosition));
    });

    it('is not held back by a transaction open in another database of the same server', async () => {
      const { checkpoint } = await readToEnd(START_CHECKPOINT);
      const elsewhere = await createTestDatabase();
      const other = new Client({ connectionString: elsewhere.url });
      await other.connect();
      try {
        // A write transaction there: its transaction id is the server-wide snapshot's oldest while it stays open.
        await other.query('BEGIN');
        await other.query('CREATE TABLE busy (id int)');
        await other.query('INSERT INTO busy VALUES (1)');
        const stream = streamOf('meanwhile');
        await store.append([{ streamId: stream, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
        const read = await readToEnd(checkpoint);
        expect(read.events.map((event) => event.streamId)).toEqual([stream]);
      } finally {
        await other.query('ROLLBACK');
        await other.end();
        await elsewhere.drop();
      }
    });

    it('is not held back by a long REPEATABLE READ transaction such as a verify', async () => {
      const { checkpoint } = await readToEnd(START_CHECKPOINT);
      const audit = dataSource.createQueryRunner();
      await audit.connect();
      try {
        // What `kupa ledger verify` holds: one snapshot, and temporary tables that give it a transaction id.
        await audit.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await audit.query('CREATE TEMPORARY TABLE audit_copy AS SELECT global_position FROM events');
        const stream = streamOf('during-verify');
        await store.append([{ streamId: stream, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
        const read = await readToEnd(checkpoint);
        expect(read.events.map((event) => event.streamId)).toEqual([stream]);
      } finally {
        await audit.query('ROLLBACK');
        await audit.release();
      }
    });

    it('hands out a stream in version order even when the later version’s transaction began first', async () => {
      const shared = streamOf('shared');
      await store.append(
        [{ streamId: shared, expectedVersion: 0, events: [{ type: 'Added', data: { v: 1 } }] }],
        metadata,
      );
      const { checkpoint } = await readToEnd(START_CHECKPOINT);

      await appendLaterVersionFirst(store, shared, streamOf('later'), 'Added');

      const read = await readToEnd(checkpoint);
      const sharedVersions = read.events
        .filter((event) => event.streamId === shared)
        .map((event) => event.streamVersion);
      expect(sharedVersions).toEqual([2, 3]);
      const positions = read.events.map((event) => BigInt(event.commitPosition));
      expect(positions).toEqual([...positions].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0)));
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

      env.slowGate = gate();
      const slow = store.append(
        [{ streamId: slowStream, expectedVersion: 0, events: [{ type: 'SlowAdded', data: {} }] }],
        metadata,
      );
      await env.slowGate.entered;

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

      env.slowGate.open();
      const slowEvent = (await slow).events[0];
      env.slowGate = null;
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

  describe('readAllOfTypes', () => {
    async function endOfStore(): Promise<GlobalCheckpoint> {
      let checkpoint = START_CHECKPOINT;
      for (;;) {
        const batch = await store.readAll(checkpoint, 1000);
        if (batch.length === 0) return checkpoint;
        const last = batch[batch.length - 1];
        checkpoint = { commitPosition: last.commitPosition };
      }
    }

    it('decodes only the asked types of the readAll window, and ends where the window ends whatever its type', async () => {
      const from = await endOfStore();
      const mixed = streamOf('mixed');
      await store.append(
        [
          {
            streamId: mixed,
            expectedVersion: 0,
            events: [
              { type: 'Kept', data: { n: 1 } },
              { type: 'Skipped', data: { n: 2 } },
              { type: 'Kept', data: { n: 3 } },
            ],
          },
        ],
        metadata,
      );
      await store.append(
        [{ streamId: streamOf('other'), expectedVersion: 0, events: [{ type: 'Skipped', data: { n: 4 } }] }],
        metadata,
      );
      const all = await eventually(
        () => store.readAll(from, 100),
        (events) => events.length === 4,
        'the four events',
      );

      const typed = await store.readAllOfTypes(from, 100, ['Kept']);
      expect(typed.read).toBe(4);
      // The same events, decoded the same way, as readAll gives.
      expect(typed.events).toEqual(all.filter((event) => event.type === 'Kept'));
      expect(typed.events.map((event) => event.data)).toEqual([{ n: 1 }, { n: 3 }]);
      const last = all[3];
      expect(last.type).toBe('Skipped');
      expect(typed.end).toEqual({ commitPosition: last.commitPosition });

      // Every type asked: the whole window, as readAll gives it.
      expect(await store.readAllOfTypes(from, 100, '*')).toEqual({ events: all, read: 4, end: typed.end });

      // The window is whole commits, as readAll's (ADR 0128): asked for 2 events, it reads the first commit's 3, all
      // at one commit position, and a commit more only while fewer than the limit come before it.
      expect(new Set(all.slice(0, 3).map((event) => event.commitPosition)).size).toBe(1);
      const firstTwo = await store.readAllOfTypes(from, 2, ['Kept']);
      expect(firstTwo.read).toBe(3);
      expect(firstTwo.events.map((event) => event.data)).toEqual([{ n: 1 }, { n: 3 }]);
      expect(firstTwo.end).toEqual({ commitPosition: all[2].commitPosition });
      expect((await store.readAll(from, 3)).map((event) => event.data)).toEqual(all.slice(0, 3).map((e) => e.data));
      expect(await store.readAll(from, 4)).toEqual(all);

      // A window without the asked types still moves the reader on; past the end there is no window.
      const noneKept = await store.readAllOfTypes(from, 100, ['Unknown']);
      expect(noneKept.events).toEqual([]);
      expect(noneKept.end).toEqual(typed.end);
      expect(await store.readAllOfTypes(typed.end ?? from, 100, ['Kept'])).toEqual({ events: [], read: 0, end: null });
    });
  });
});
