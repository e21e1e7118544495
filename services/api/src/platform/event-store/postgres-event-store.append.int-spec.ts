import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { WrongExpectedVersionError } from './errors';
import { chainHash } from './event-hash';
import type { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';
import {
  CROSSING_ROUNDS,
  eventually,
  gate,
  metadata,
  PARALLEL_CALLERS,
  streamOf,
  useEventStore,
} from './event-store.fixtures';

describe('PostgresEventStore on PostgreSQL: append and transact', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let eventTypes: EventTypeRegistry;
  let projections: InlineProjectionRegistry;
  let store: PostgresEventStore;
  const projectedRows = (streamIds: string[]) => env.projectedRows(streamIds);
  const eventCount = (streamIds: string[]) => env.eventCount(streamIds);
  /** Whether a session of this database waits for a lock now (a command queued behind another's locks). */
  const someoneWaitsForALock = async () =>
    (
      await dataSource.query<{ waiting: number }[]>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )
    )[0].waiting > 0;

  /**
   * Inserts a stream's row in a transaction of its own and leaves it open: an append that names the stream waits on
   * the row until `commit` is called.
   */
  async function createUncommitted(streamId: string): Promise<{ commit(): Promise<void> }> {
    const creator = dataSource.createQueryRunner();
    await creator.connect();
    await creator.startTransaction();
    await creator.query('INSERT INTO streams (stream_id, version) VALUES ($1, 0)', [streamId]);
    return {
      async commit() {
        await creator.commitTransaction();
        await creator.release();
      },
    };
  }

  /** A store that never retries and records each restart, with the streams that caused it. */
  function restartRecordingStore(): { strict: PostgresEventStore; restarts: (readonly string[])[] } {
    const restarts: (readonly string[])[] = [];
    const strict = new PostgresEventStore(dataSource, projections, eventTypes, {
      maxTransactionAttempts: 1,
      onRestart: (streamIds) => restarts.push(streamIds),
    });
    return { strict, restarts };
  }

  beforeAll(() => {
    ({ dataSource, eventTypes, projections, store } = env);
  });

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
      const ids = [...first.events, ...second.events].map((event) => event.eventId);
      expect(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(
        true,
      );
      expect(new Set(ids).size).toBe(3);
      expect(second.events[0].recordedAt).toBeInstanceOf(Date);
      // The time of the append, not of the transaction's start: a later append of the stream is never earlier.
      expect(second.events[0].recordedAt.getTime()).toBeGreaterThanOrEqual(first.events[0].recordedAt.getTime());

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

    it('locks a stream another transaction created and committed while the append waited for it', async () => {
      const streamId = streamOf('wallet');
      const creator = await createUncommitted(streamId);
      // The append's insert waits on the uncommitted row; once it commits, the row is in neither half of the
      // append's first statement, and only the second locking read can find it.
      const appended = store.append(
        [{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await creator.commit();
      await appended;
      expect(await store.streamVersion(streamId)).toBe(1);
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

    it('never deadlocks when many commands create the stream they share while holding streams sorted after it', async () => {
      // The fleet's race: payers that exist send to a receiver whose stream the first of them creates. A command whose
      // insert waited for that creator holds its payer's lock by then, and the receiver sorts first. Starts spread
      // over a few milliseconds and work that holds its locks a while let later commands lock the new stream first.
      const retries: unknown[] = [];
      const strict = new PostgresEventStore(dataSource, projections, eventTypes, {
        maxTransactionAttempts: 1,
        onRetry: (error) => retries.push(error),
      });
      const payers = Array.from({ length: 4 }, () => `wallet-b-${randomUUID()}`);
      for (const payer of payers) {
        await store.append([{ streamId: payer, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      }
      for (let round = 0; round < CROSSING_ROUNDS; round += 1) {
        const receiver = `wallet-a-${randomUUID()}`;
        const send = async (index: number) => {
          await new Promise((resolve) => setTimeout(resolve, index * 3));
          const payer = payers[index % payers.length];
          return strict.transact([payer, receiver, streamOf('payment')], metadata, async (tx) => {
            await tx.manager.query('SELECT pg_sleep(0.01)');
            const payerVersion = await tx.streamVersion(payer);
            return {
              appends: [
                { streamId: payer, expectedVersion: payerVersion, events: [{ type: 'Debited', data: {} }] },
                { streamId: receiver, expectedVersion: 'any', events: [{ type: 'Credited', data: { payer } }] },
              ],
              result: null,
            };
          });
        };
        const outcomes = await Promise.allSettled(Array.from({ length: PARALLEL_CALLERS }, (_, index) => send(index)));
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        expect(await store.streamVersion(receiver)).toBe(PARALLEL_CALLERS);
      }
      expect(retries).toEqual([]);
    });

    it('starts again, outside the retry budget, when a stream created meanwhile sorts before one it holds', async () => {
      const { strict, restarts } = restartRecordingStore();
      const held = `wallet-b-${randomUUID()}`;
      const created = `wallet-a-${randomUUID()}`;
      await store.append([{ streamId: held, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      const creator = await createUncommitted(created);
      const appended = strict.append(
        [
          { streamId: held, expectedVersion: 1, events: [{ type: 'Debited', data: {} }] },
          { streamId: created, expectedVersion: 0, events: [{ type: 'Credited', data: {} }] },
        ],
        metadata,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await creator.commit();
      await appended;
      expect(restarts).toEqual([[created]]);
      expect(await store.streamVersion(held)).toBe(2);
      expect(await store.streamVersion(created)).toBe(1);
    });

    describe('streams named to be read only', () => {
      /** Appends one event to `streamId`, expecting the version it finds under the lock. */
      const appendTo = (target: PostgresEventStore, streamId: string, data: Record<string, unknown> = {}) =>
        target.transact([streamId], metadata, async (tx) => ({
          appends: [{ streamId, expectedVersion: await tx.streamVersion(streamId), events: [{ type: 'Added', data }] }],
          result: null,
        }));

      it('lets commands that read a stream hold it together, while one that appends to it waits for them', async () => {
        const read = streamOf('plan');
        await appendTo(store, read);
        const held = gate();
        const first = store.transact(
          [read, streamOf('subscription')],
          metadata,
          async (tx) => {
            held.enter();
            await held.opened;
            return { appends: [], result: await tx.streamVersion(read) };
          },
          { readOnly: [read] },
        );
        await held.entered;
        // A second reader runs to its end while the first still holds the stream.
        const second = await store.transact(
          [read, streamOf('subscription')],
          metadata,
          async (tx) => ({ appends: [], result: (await tx.readStream(read)).length }),
          { readOnly: [read] },
        );
        expect(second.result).toBe(1);
        // A writer waits for the reader still holding it.
        let written = false;
        const writer = appendTo(store, read, { by: 'writer' }).then(() => (written = true));
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the writer to wait for the reader');
        expect(written).toBe(false);
        held.open();
        expect((await first).result).toBe(1);
        await writer;
        expect(await store.streamVersion(read)).toBe(2);
      });

      it('makes a reader wait for a command that appends to the stream, and read what it appended', async () => {
        const read = streamOf('plan');
        await appendTo(store, read);
        // The writer holds its lock inside the slow projection until the gate opens.
        env.slowGate = gate();
        const writer = store.append(
          [{ streamId: read, expectedVersion: 1, events: [{ type: 'SlowAdded', data: {} }] }],
          metadata,
        );
        await env.slowGate.entered;
        const reader = store.transact(
          [read],
          metadata,
          async (tx) => ({ appends: [], result: (await tx.readStream(read)).map((event) => event.type) }),
          { readOnly: [read] },
        );
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the reader to wait for the writer');
        env.slowGate.open();
        await writer;
        env.slowGate = null;
        expect((await reader).result).toEqual(['Added', 'SlowAdded']);
      });

      it('refuses, as a bug, work that appends to a stream it named to read only, and writes nothing', async () => {
        const read = streamOf('plan');
        const written = streamOf('subscription');
        await appendTo(store, read);
        await expect(
          store.transact(
            [read, written],
            metadata,
            async () => ({
              appends: [
                { streamId: written, expectedVersion: 0, events: [{ type: 'Added', data: {} }] },
                { streamId: read, expectedVersion: 1, events: [{ type: 'Added', data: {} }] },
              ],
              result: null,
            }),
            { readOnly: [read] },
          ),
        ).rejects.toThrow(`Stream ${read} was locked to be read, not appended to`);
        await expect(
          store.transact([written], metadata, async () => ({ appends: [], result: null }), { readOnly: [read] }),
        ).rejects.toThrow('is not among the named streams');
        expect(await store.streamVersion(read)).toBe(1);
        expect(await eventCount([written])).toBe(0);
      });

      it('reads a stream that does not exist as empty, without creating it', async () => {
        const missing = streamOf('plan');
        const written = streamOf('subscription');
        const outcome = await store.transact(
          [missing, written],
          metadata,
          async (tx) => ({
            appends: [{ streamId: written, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
            result: { version: await tx.streamVersion(missing), events: (await tx.readStream(missing)).length },
          }),
          { readOnly: [missing] },
        );
        expect(outcome.result).toEqual({ version: 0, events: 0 });
        expect(outcome.append.streamVersions).toEqual({ [written]: 1 });
        const rows = await dataSource.query('SELECT 1 FROM streams WHERE stream_id = $1', [missing]);
        expect(rows).toEqual([]);
      });

      it('locks a stream created meanwhile without starting again for a read-only stream that does not exist', async () => {
        const { strict, restarts } = restartRecordingStore();
        // The missing read-only stream sorts before the held one, the stream created meanwhile after it: only the
        // latter is locked late, in order, and the former is no reason to start again.
        const absent = `a-${randomUUID()}`;
        const held = `wallet-a-${randomUUID()}`;
        const created = `wallet-b-${randomUUID()}`;
        await appendTo(store, held);
        const creator = await createUncommitted(created);
        const appended = strict.transact(
          [absent, held, created],
          metadata,
          async (tx) => ({
            appends: [
              {
                streamId: held,
                expectedVersion: await tx.streamVersion(held),
                events: [{ type: 'Debited', data: {} }],
              },
              { streamId: created, expectedVersion: 0, events: [{ type: 'Credited', data: {} }] },
            ],
            result: await tx.streamVersion(absent),
          }),
          { readOnly: [absent] },
        );
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the command to wait for the creator');
        await creator.commit();
        expect((await appended).result).toBe(0);
        expect(restarts).toEqual([]);
        expect(await store.streamVersion(held)).toBe(2);
        expect(await store.streamVersion(created)).toBe(1);
      });

      it('never deadlocks when commands read and write overlapping streams in every mix (no retries allowed)', async () => {
        const retries: unknown[] = [];
        const strict = new PostgresEventStore(dataSource, projections, eventTypes, {
          maxTransactionAttempts: 1,
          onRetry: (error) => retries.push(error),
        });
        // Three streams, and every command names all three, reading one or two of them and appending to the rest:
        // read-only locks taken out of the sorted order would let a reader of a hold one a writer of it needs.
        const streams = ['a', 'b', 'c'].map((prefix) => `${prefix}-${randomUUID()}`);
        for (const streamId of streams) await appendTo(store, streamId);
        const mixes = [[0], [1], [2], [0, 1], [0, 2], [1, 2]].map((indexes) => indexes.map((index) => streams[index]));
        const command = (readOnly: string[], index: number) =>
          strict.transact(
            [...streams].reverse(),
            metadata,
            async (tx) => {
              await tx.manager.query('SELECT pg_sleep(0.002)');
              const appends = [];
              for (const streamId of streams.filter((streamId) => !readOnly.includes(streamId))) {
                appends.push({
                  streamId,
                  expectedVersion: await tx.streamVersion(streamId),
                  events: [{ type: 'Added', data: { index } }],
                });
              }
              return { appends, result: null };
            },
            { readOnly },
          );
        const appended = new Map(streams.map((streamId) => [streamId, 1]));
        for (let round = 0; round < CROSSING_ROUNDS; round += 1) {
          const outcomes = await Promise.allSettled(
            Array.from({ length: PARALLEL_CALLERS }, (_, index) =>
              command(mixes[(index + round) % mixes.length], index),
            ),
          );
          expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
          for (let index = 0; index < PARALLEL_CALLERS; index += 1) {
            for (const streamId of streams) {
              if (!mixes[(index + round) % mixes.length].includes(streamId)) {
                appended.set(streamId, (appended.get(streamId) ?? 0) + 1);
              }
            }
          }
        }
        expect(retries).toEqual([]);
        for (const streamId of streams) expect(await store.streamVersion(streamId)).toBe(appended.get(streamId));
      });
    });

    describe('rows read with the locks', () => {
      /** The newest projected version of each stream named by the parameter `ids`. */
      const newestRows = (streamIds: string[]) => ({
        sql: (ids: string) =>
          `SELECT stream_id, max(stream_version) AS version FROM test_rows
            WHERE stream_id = ANY(${ids}::text[]) GROUP BY stream_id`,
        streamIds,
      });
      const readWithLocks = (streamIds: string[], readOnly: string[] = []) =>
        store.transact(
          streamIds,
          metadata,
          async (tx) => ({
            appends: [],
            result: { rows: tx.rowsReadWithLocks, head: await tx.streamVersion(streamIds[0]) },
          }),
          { readOnly, readsWithLocks: [newestRows(streamIds), newestRows([])] },
        );

      it('hands each read its rows beside the heads, with streams locked to write or to read', async () => {
        const [written, read] = [streamOf('wallet'), streamOf('plan')];
        await store.append(
          [{ streamId: written, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
          metadata,
        );
        await store.append([{ streamId: read, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
        const plain = await readWithLocks([written, streamOf('payment')]);
        expect(plain.result).toEqual({ rows: [[{ stream_id: written, version: 1 }], []], head: 1 });
        const mixed = await readWithLocks([read, written], [read]);
        expect(mixed.result.rows[0]).toEqual(
          expect.arrayContaining([
            { stream_id: read, version: 1 },
            { stream_id: written, version: 1 },
          ]),
        );
        expect(mixed.result.head).toBe(1);
      });

      it('reads them as they were when the statement began: behind a head it waited for, as the versions tell', async () => {
        const streamId = streamOf('wallet');
        await store.append([{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
        env.slowGate = gate();
        const writer = store.append(
          [
            {
              streamId,
              expectedVersion: 1,
              events: [
                { type: 'Added', data: {} },
                { type: 'SlowAdded', data: {} },
              ],
            },
          ],
          metadata,
        );
        await env.slowGate.entered;
        const reader = readWithLocks([streamId]);
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the reader to wait for the writer');
        env.slowGate.open();
        await writer;
        env.slowGate = null;
        // The locked head is the writer's; the rows read in the same statement are from before it committed.
        expect((await reader).result).toEqual({ rows: [[{ stream_id: streamId, version: 1 }], []], head: 3 });
        expect((await readWithLocks([streamId])).result).toEqual({
          rows: [[{ stream_id: streamId, version: 2 }], []],
          head: 3,
        });
      });
    });

    describe('streams the locking statement created', () => {
      const createdBy = (streamIds: string[], readOnly: string[] = []) =>
        store.transact(streamIds, metadata, async (tx) => ({ appends: [], result: [...tx.createdStreams].sort() }), {
          readOnly,
        });

      it('names the streams it inserted, not those that existed, nor one another transaction created meanwhile', async () => {
        const [existing, fresh, meanwhile, readOnly] = [
          streamOf('wallet'),
          streamOf('payment'),
          streamOf('login'),
          streamOf('plan'),
        ];
        await store.append(
          [{ streamId: existing, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
          metadata,
        );
        expect((await createdBy([existing, fresh, readOnly], [readOnly])).result).toEqual([fresh]);
        expect((await createdBy([fresh])).result).toEqual([]);
        const creator = await createUncommitted(meanwhile);
        const waiting = createdBy([meanwhile]);
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the transaction to wait for the creator');
        await creator.commit();
        expect((await waiting).result).toEqual([]);
      });
    });

    describe('events read with the locks', () => {
      /** Counts the statements the work runs on the transaction's connection. */
      const readEventsWithLocks = (streamIds: string[], readOnly: string[], fromVersion?: number) =>
        store.transact(
          streamIds,
          metadata,
          async (tx) => {
            const queries: string[] = [];
            const query = tx.manager.query.bind(tx.manager);
            (tx.manager as { query: typeof query }).query = (sql: string, parameters?: unknown[]) => {
              queries.push(sql);
              return query(sql, parameters);
            };
            const events = await tx.readStream(streamIds[0], fromVersion === undefined ? {} : { fromVersion });
            (tx.manager as { query: typeof query }).query = query;
            return {
              appends: [],
              result: { versions: events.map((event) => [event.streamVersion, event.type, event.data]), queries },
            };
          },
          { readOnly, eventsReadWithLocks: [streamIds[0]] },
        );

      it('answers readStream from the locking statement, as a read of its own returns them, with no statement', async () => {
        const [plan, wallet] = [streamOf('plan'), streamOf('wallet')];
        await store.append(
          [
            {
              streamId: plan,
              expectedVersion: 0,
              events: [
                { type: 'Added', data: { n: 1 } },
                { type: 'Added', data: { n: 2 } },
              ],
            },
          ],
          metadata,
        );
        const asRead = (await store.readStream(plan)).map((event) => [event.streamVersion, event.type, event.data]);
        const shared = await readEventsWithLocks([plan, wallet], [plan]);
        expect(shared.result).toEqual({ versions: asRead, queries: [] });
        const exclusive = await readEventsWithLocks([plan], [], 2);
        expect(exclusive.result).toEqual({ versions: asRead.slice(1), queries: [] });
        const recorded = (await store.readStream(plan))[0];
        const fromLocks = await store.transact(
          [plan],
          metadata,
          async (tx) => ({ appends: [], result: (await tx.readStream(plan))[0] }),
          { eventsReadWithLocks: [plan] },
        );
        expect(fromLocks.result).toEqual(recorded);
      });

      it('reads on from the last event the statement saw when it waited for a writer', async () => {
        const streamId = streamOf('plan');
        await store.append([{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: { n: 1 } }] }], metadata);
        env.slowGate = gate();
        const writer = store.append(
          [
            {
              streamId,
              expectedVersion: 1,
              events: [
                { type: 'Added', data: { n: 2 } },
                { type: 'SlowAdded', data: {} },
              ],
            },
          ],
          metadata,
        );
        await env.slowGate.entered;
        const reader = readEventsWithLocks([streamId], [streamId]);
        await eventually(someoneWaitsForALock, (waiting) => waiting, 'the reader to wait for the writer');
        env.slowGate.open();
        await writer;
        env.slowGate = null;
        const { result } = await reader;
        expect(result.versions).toEqual([
          [1, 'Added', { n: 1 }],
          [2, 'Added', { n: 2 }],
          [3, 'SlowAdded', {}],
        ]);
        expect(result.queries).toHaveLength(1);
      });
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
});
