import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { WrongExpectedVersionError } from './errors';
import { chainHash } from './event-hash';
import type { EventTypeRegistry } from './event-type-registry';
import { PostgresEventStore } from './postgres-event-store';
import { CROSSING_ROUNDS, metadata, PARALLEL_CALLERS, streamOf, useEventStore } from './event-store.fixtures';

describe('PostgresEventStore on PostgreSQL: append and transact', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let eventTypes: EventTypeRegistry;
  let projections: InlineProjectionRegistry;
  let store: PostgresEventStore;
  const projectedRows = (streamIds: string[]) => env.projectedRows(streamIds);
  const eventCount = (streamIds: string[]) => env.eventCount(streamIds);

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

    it('locks a stream another transaction created and committed while the append waited for it', async () => {
      const streamId = streamOf('wallet');
      const creator = dataSource.createQueryRunner();
      await creator.connect();
      await creator.startTransaction();
      await creator.query('INSERT INTO streams (stream_id, version) VALUES ($1, 0)', [streamId]);
      // The append's insert waits on the uncommitted row; once it commits, the row is in neither half of the
      // append's first statement, and only the second locking read can find it.
      const appended = store.append(
        [{ streamId, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }],
        metadata,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await creator.commitTransaction();
      await creator.release();
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
      const restarts: (readonly string[])[] = [];
      const strict = new PostgresEventStore(dataSource, projections, eventTypes, {
        maxTransactionAttempts: 1,
        onRestart: (streamIds) => restarts.push(streamIds),
      });
      const held = `wallet-b-${randomUUID()}`;
      const created = `wallet-a-${randomUUID()}`;
      await store.append([{ streamId: held, expectedVersion: 0, events: [{ type: 'Added', data: {} }] }], metadata);
      const creator = dataSource.createQueryRunner();
      await creator.connect();
      await creator.startTransaction();
      await creator.query('INSERT INTO streams (stream_id, version) VALUES ($1, 0)', [created]);
      const appended = strict.append(
        [
          { streamId: held, expectedVersion: 1, events: [{ type: 'Debited', data: {} }] },
          { streamId: created, expectedVersion: 0, events: [{ type: 'Credited', data: {} }] },
        ],
        metadata,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await creator.commitTransaction();
      await creator.release();
      await appended;
      expect(restarts).toEqual([[created]]);
      expect(await store.streamVersion(held)).toBe(2);
      expect(await store.streamVersion(created)).toBe(1);
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
