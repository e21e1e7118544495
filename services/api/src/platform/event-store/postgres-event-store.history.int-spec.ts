import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource, EntityManager } from 'typeorm';
import { InlineProjectionRegistry, replayedTypes } from '../projections/inline-projection.registry';
import { type InlineProjection, type RecordedEvent, START_CHECKPOINT } from './event-store.port';
import { EventTypeRegistry } from './event-type-registry';
import { databaseUrlOf, withReadOnlySnapshot } from '../database/read-only-snapshot';
import { COMMIT_OF_EVENT } from './event-rows';
import { verifyStreamHashes, verifyWithin } from './hash-chain-verifier';
import { PostgresEventStore } from './postgres-event-store';
import { eventually, gate, metadata, streamOf, useEventStore, WAIT_TIMEOUT_MS } from './event-store.fixtures';

describe('PostgresEventStore on PostgreSQL: hash chains, event types and rebuilds', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let eventTypes: EventTypeRegistry;
  let projections: InlineProjectionRegistry;
  let store: PostgresEventStore;
  const projectedRows = (streamIds: string[]) => env.projectedRows(streamIds);

  beforeAll(() => {
    ({ dataSource, eventTypes, projections, store } = env);
  });

  describe('hash chain verification', () => {
    it('rejects with the reason when the worker cannot reach the database', async () => {
      const unreachable = { options: { url: 'postgres://nobody@127.0.0.1:1/none' } } as unknown as DataSource;
      await expect(verifyStreamHashes(unreachable)).rejects.toThrow(/ECONNREFUSED/);
    });

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
      // The worker gives the same report as the check run on this thread over a snapshot of the same database.
      expect(await withReadOnlySnapshot(databaseUrlOf(dataSource), 'hash chain spec', verifyWithin)).toEqual(after);
      await dataSource.query('DELETE FROM events WHERE stream_id = ANY($1)', [[tampered, gapped]]);
      await dataSource.query('DELETE FROM streams WHERE stream_id = ANY($1)', [[tampered, gapped]]);
    });
    it('names an event whose id another event carries already (no index refuses it, ADR 0128)', async () => {
      const original = streamOf('original');
      const copied = streamOf('copied');
      for (const streamId of [original, copied]) {
        await store.append(
          [{ streamId, expectedVersion: 0, events: [1, 2].map((n) => ({ type: 'Added', data: { n } })) }],
          metadata,
        );
      }
      expect((await verifyStreamHashes(dataSource)).problems).toEqual([]);
      // A copy of an event as a restore or an import that copies rows would make it: the same id on another row.
      await dataSource.query(
        `UPDATE events SET event_id = (SELECT event_id FROM events WHERE stream_id = $1 AND stream_version = 2)
          WHERE stream_id = $2 AND stream_version = 1`,
        [original, copied],
      );
      const report = await verifyStreamHashes(dataSource);
      expect(report.ok).toBe(false);
      // The later of the two rows in (stream, version) order is named, with the one that carries the id first.
      const later = original < copied ? { streamId: copied, version: 1 } : { streamId: original, version: 2 };
      const earlier = original < copied ? `${original} v2` : `${copied} v1`;
      expect(report.problems).toEqual([
        expect.objectContaining({
          streamId: later.streamId,
          streamVersion: later.version,
          kind: 'event-id-duplicate',
          message: expect.stringContaining(`is also ${earlier}'s`),
        }),
      ]);
      await dataSource.query('DELETE FROM events WHERE stream_id = ANY($1)', [[original, copied]]);
      await dataSource.query('DELETE FROM streams WHERE stream_id = ANY($1)', [[original, copied]]);
    });

    it('names an event without a commit position and a stream whose versions were numbered out of order', async () => {
      const unnumbered = streamOf('unnumbered');
      const swapped = streamOf('swapped');
      for (const streamId of [unnumbered, swapped]) {
        await store.append(
          [{ streamId, expectedVersion: 0, events: [1, 2].map((n) => ({ type: 'Added', data: { n } })) }],
          metadata,
        );
      }
      expect((await verifyStreamHashes(dataSource)).problems).toEqual([]);
      const positionsOf = (streamId: string) =>
        dataSource.query(
          `SELECT event_commit.commit_position::text AS commit, events.global_position::text AS event
             FROM events LEFT JOIN LATERAL ${COMMIT_OF_EVENT} ON true
            WHERE events.stream_id = $1 ORDER BY events.stream_version`,
          [streamId],
        ) as Promise<{ commit: string; event: string }[]>;
      // Both versions of each stream were appended together: one commit row holds them (ADR 0128).
      const [kept, lost] = await positionsOf(unnumbered);
      expect(lost.commit).toBe(kept.commit);
      // The commit's range shrunk to its first event: the second is in no commit.
      const shrink =
        'UPDATE event_commits SET last_position = first_position, event_count = 1 WHERE commit_position = $1';
      await dataSource.query(shrink, [kept.commit]);
      expect((await positionsOf(unnumbered))[1].commit).toBeNull();
      const [first, second] = await positionsOf(swapped);
      // The second version moves to a commit of its own, numbered before the first's.
      await dataSource.query(shrink, [first.commit]);
      await dataSource.query(
        `INSERT INTO event_commits (commit_position, transaction_id, first_position, last_position, event_count)
         SELECT -commit_position, transaction_id, $2, $2, 1 FROM event_commits WHERE commit_position = $1`,
        [first.commit, second.event],
      );
      const report = await verifyStreamHashes(dataSource);
      expect(report.ok).toBe(false);
      const expected: [string, string][] = [
        [unnumbered, 'commit-missing'],
        [swapped, 'commit-order'],
      ];
      expect(report.problems.map((problem) => [problem.streamId, problem.streamVersion, problem.kind])).toEqual(
        expected.sort(([left], [right]) => (left < right ? -1 : 1)).map(([streamId, kind]) => [streamId, 2, kind]),
      );
      await dataSource.query(
        'DELETE FROM event_commits WHERE commit_position IN ($1::bigint, $2::bigint, -$2::bigint)',
        [kept.commit, first.commit],
      );
      await dataSource.query('DELETE FROM events WHERE stream_id = ANY($1)', [[unnumbered, swapped]]);
      await dataSource.query('DELETE FROM streams WHERE stream_id = ANY($1)', [[unnumbered, swapped]]);
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

    it('replays beside live appends, then takes in what they committed meanwhile', async () => {
      await dataSource.query(
        'CREATE TABLE gated_rows (stream_id text, stream_version int, PRIMARY KEY (stream_id, stream_version))',
      );
      // A read model whose replay waits on a gate while it rebuilds; live appends project into it as usual.
      const held = gate();
      let rebuilding: EntityManager | null = null;
      const gated: InlineProjection = {
        name: 'gated-rows',
        handles: ['Gated'],
        tables: ['gated_rows'],
        beginRebuild(manager) {
          rebuilding = manager;
        },
        async endRebuild() {
          rebuilding = null;
        },
        async apply(events, manager) {
          if (manager === rebuilding) {
            held.enter();
            await held.opened;
          }
          for (const event of events)
            await manager.query('INSERT INTO gated_rows VALUES ($1, $2)', [event.streamId, event.streamVersion]);
        },
        async reset(manager) {
          await manager.query('DELETE FROM gated_rows');
        },
      };
      const registry = new InlineProjectionRegistry(dataSource, eventTypes);
      registry.register(gated);
      const gatedStore = new PostgresEventStore(dataSource, registry, eventTypes);
      const [before, meanwhile] = [streamOf('before'), streamOf('meanwhile')];
      const gatedEvents = (streamId: string, count: number) => [
        { streamId, expectedVersion: 0, events: Array.from({ length: count }, () => ({ type: 'Gated', data: {} })) },
      ];
      await gatedStore.append(gatedEvents(before, 3), metadata);
      // A row no event explains: the rebuild must drop it.
      await dataSource.query("INSERT INTO gated_rows VALUES ('stray', 1)");

      const rebuilt = registry.rebuild('gated-rows');
      await held.entered;
      // The replay is under way: an append neither waits for it nor is lost by it.
      const appended = await Promise.race([
        gatedStore.append(gatedEvents(meanwhile, 2), metadata).then(() => 'appended'),
        sleep(WAIT_TIMEOUT_MS).then(() => 'held back'),
      ]);
      expect(appended).toBe('appended');
      held.open();
      const report = await rebuilt;
      const rows: { stream_id: string; stream_version: number }[] = await dataSource.query(
        'SELECT stream_id, stream_version FROM gated_rows ORDER BY stream_id, stream_version',
      );
      expect(rows).toEqual(
        [
          ...[1, 2, 3].map((version) => ({ stream_id: before, stream_version: version })),
          ...[1, 2].map((version) => ({ stream_id: meanwhile, stream_version: version })),
        ].sort((left, right) => (left.stream_id < right.stream_id ? -1 : left.stream_id > right.stream_id ? 1 : 0)),
      );
      const [{ total }]: { total: number }[] = await dataSource.query('SELECT count(*)::int AS total FROM events');
      expect(report).toEqual({ projections: ['gated-rows'], eventsReplayed: total });
      // The temporary copies went with the rebuild.
      const copies: unknown[] = await dataSource.query(
        "SELECT 1 FROM pg_class WHERE relname = 'gated_rows' AND relpersistence = 't'",
      );
      expect(copies).toEqual([]);
    });

    it('decodes only the types the replayed projections use, and counts every event it passes', async () => {
      const received: { everything: RecordedEvent[]; listed: RecordedEvent[] } = { everything: [], listed: [] };
      const everything: InlineProjection = {
        name: 'replay-everything-but-skipped',
        handles: '*',
        ignores: ['ReplaySkipped'],
        async apply(events) {
          received.everything.push(...events);
        },
        async reset() {},
      };
      const listed: InlineProjection = {
        name: 'replay-listed',
        handles: ['ReplayListed'],
        async apply(events) {
          received.listed.push(...events);
        },
        async reset() {},
      };
      const registry = new InlineProjectionRegistry(dataSource, eventTypes);
      registry.register(everything);
      registry.register(listed);
      const streamId = streamOf('replayed');
      const types = ['ReplayKept', 'ReplaySkipped', 'ReplayListed', 'ReplaySkipped', 'ReplayKept', 'ReplaySkipped'];
      await store.append(
        [{ streamId, expectedVersion: 0, events: types.map((type, index) => ({ type, data: { index } })) }],
        metadata,
      );
      // Stored at version 1, every type of this test is now read at version 2 through an upcaster that records it.
      const decoded: string[] = [];
      for (const type of ['ReplayKept', 'ReplaySkipped', 'ReplayListed']) {
        eventTypes.register(type, {
          schemaVersion: 2,
          upcasters: {
            1: (data) => {
              decoded.push(type);
              return data;
            },
          },
        });
      }
      const [{ total }]: Array<{ total: number }> = await dataSource.query('SELECT count(*)::int AS total FROM events');
      const ours = (events: RecordedEvent[]) => events.filter((event) => event.streamId === streamId);

      // Batches of two, so that batches of skipped events alone are passed over as well.
      const passed = await dataSource.transaction((manager) => registry.replayAll(manager, [everything], 2));
      expect(passed).toBe(total);
      expect(ours(received.everything).map((event) => [event.type, event.data])).toEqual([
        ['ReplayKept', { index: 0 }],
        ['ReplayListed', { index: 2 }],
        ['ReplayKept', { index: 4 }],
      ]);
      expect(received.everything.some((event) => event.type === 'ReplaySkipped')).toBe(false);
      expect(decoded).toEqual(['ReplayKept', 'ReplayListed', 'ReplayKept']);

      received.everything = [];
      decoded.length = 0;
      await dataSource.transaction((manager) => registry.replayAll(manager, [listed], 2));
      expect(ours(received.listed).map((event) => event.data)).toEqual([{ index: 2 }]);
      expect(received.everything).toEqual([]);
      expect(decoded).toEqual(['ReplayListed']);
    });

    it('names the types a replay decodes from what each projection handles and ignores', () => {
      expect(replayedTypes([{ handles: ['A', 'B'] }, { handles: ['B', 'C'] }])).toEqual({ only: ['A', 'B', 'C'] });
      expect(replayedTypes([{ handles: '*' }])).toEqual({ except: [] });
      expect(replayedTypes([{ handles: '*', ignores: ['W1', 'W2'] }])).toEqual({ except: ['W1', 'W2'] });
      // A type another projection lists, or one that another projection handling everything uses, is decoded.
      expect(replayedTypes([{ handles: '*', ignores: ['W1', 'W2'] }, { handles: ['W2'] }])).toEqual({
        except: ['W1'],
      });
      expect(
        replayedTypes([
          { handles: '*', ignores: ['W1', 'W2'] },
          { handles: '*', ignores: ['W1'] },
        ]),
      ).toEqual({ except: ['W1'] });
    });
  });
});
