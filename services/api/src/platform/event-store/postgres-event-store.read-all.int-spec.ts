import type { DataSource } from 'typeorm';
import { chainHash } from './event-hash';
import { type GlobalCheckpoint, type RecordedEvent, START_CHECKPOINT } from './event-store.port';
import type { PostgresEventStore } from './postgres-event-store';
import { eventually, gate, metadata, streamOf, useEventStore } from './event-store.fixtures';

describe('PostgresEventStore on PostgreSQL: gap-safe readAll', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;

  beforeAll(() => {
    ({ dataSource, store } = env);
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
      const pending: { global_position: string }[] = await dataSource.query(
        'SELECT global_position::text AS global_position FROM events WHERE stream_id = $1',
        [slowStream],
      );
      expect(pending).toHaveLength(0);

      const whileOpen = await readToEnd(checkpoint);
      expect(whileOpen.events.map((event) => event.streamId)).not.toContain(fastStream);

      env.slowGate.open();
      const slowEvents = (await slow).events;
      env.slowGate = null;
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
        checkpoint = { transactionId: last.transactionId, globalPosition: last.globalPosition };
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
      expect(typed.end).toEqual({ transactionId: last.transactionId, globalPosition: last.globalPosition });

      // Every type asked: the whole window, as readAll gives it.
      expect(await store.readAllOfTypes(from, 100, '*')).toEqual({ events: all, read: 4, end: typed.end });

      // The window is `limit` events of any type, as readAll's.
      const firstTwo = await store.readAllOfTypes(from, 2, ['Kept']);
      expect(firstTwo.read).toBe(2);
      expect(firstTwo.events.map((event) => event.data)).toEqual([{ n: 1 }]);
      expect(firstTwo.end).toEqual({ transactionId: all[1].transactionId, globalPosition: all[1].globalPosition });

      // A window without the asked types still moves the reader on; past the end there is no window.
      const noneKept = await store.readAllOfTypes(from, 100, ['Unknown']);
      expect(noneKept.events).toEqual([]);
      expect(noneKept.end).toEqual(typed.end);
      expect(await store.readAllOfTypes(typed.end ?? from, 100, ['Kept'])).toEqual({ events: [], read: 0, end: null });
    });
  });
});
