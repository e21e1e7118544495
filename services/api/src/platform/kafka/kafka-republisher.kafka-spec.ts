import { spawn } from 'node:child_process';
import { ConfigResourceTypes } from 'kafkajs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { DEFAULT_KAFKA_TOPIC_PARTITIONS, DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR } from '../config/app-config';
import type { PostgresEventStore } from '../event-store/postgres-event-store';
import { metadata, streamOf, useEventStore } from '../event-store/event-store.fixtures';
import { ProcessorRunner } from '../projections/processor-runner';
import { KAFKA_PUBLISHER_NAME, KafkaEventPublisher } from './kafka-event-publisher';
import {
  KafkaRepublisher,
  REPUBLISH_LOCK_NAMESPACE,
  type RepublishOutcome,
  type RepublishRun,
} from './kafka-republisher';
import {
  kafkaClient,
  readAllMessages,
  type ReadMessage,
  testBrokers,
  uniqueTopicPrefix,
  versionsByKey,
  waitFor,
} from './kafka.fixtures';
import { KAFKA_HEADERS } from './published-event';

/**
 * `kupa events republish` (docs/adr/0116) against the real broker: the history of a real PostgreSQL event store
 * sent to topics of its own prefix beside the live publisher, stopped and continued, crashed and continued, and
 * killed as a process and continued; what the broker holds afterwards.
 */
describe('KafkaRepublisher on a real Kafka broker', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;
  const runners: ProcessorRunner[] = [];
  const publishers: KafkaEventPublisher[] = [];

  beforeAll(async () => {
    ({ dataSource, store } = env);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await Promise.all(publishers.splice(0).map((publisher) => publisher.disconnect()));
  });

  const kafkaOptions = {
    brokers: testBrokers(),
    clientId: 'kupa-test-republish',
    retryBackoff: { baseMs: 100, maxMs: 1_000 },
    sendRetries: 2,
    topicPartitions: DEFAULT_KAFKA_TOPIC_PARTITIONS,
    topicReplicationFactor: DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
  };

  function republisher(): KafkaRepublisher {
    return new KafkaRepublisher(dataSource, env.eventTypes, kafkaOptions);
  }

  /** The live publisher under `prefix`, run by its own processor runner as the server runs it. */
  function livePublisher(prefix: string): ProcessorRunner {
    const publisher = new KafkaEventPublisher({ ...kafkaOptions, clientId: 'kupa-test', topicPrefix: prefix });
    publishers.push(publisher);
    const runner = new ProcessorRunner(dataSource, store, { batchSize: 100, pollIntervalMs: 20 });
    runner.register(publisher);
    runners.push(runner);
    runner.start();
    return runner;
  }

  async function position(sql: string, parameters: unknown[] = []): Promise<string> {
    const rows: { position: string | null }[] = await dataSource.query(sql, parameters);
    return rows[0]?.position ?? '0';
  }

  /** Events up to `end`, of every spec of this file so far: what a replay from the start to `end` sends. */
  const eventsUpTo = async (end: string) =>
    Number(
      await position(
        'SELECT coalesce(sum(event_count), 0)::text AS position FROM event_commits WHERE commit_position <= $1',
        [end],
      ),
    );
  const newestPosition = () => position('SELECT max(commit_position)::text AS position FROM event_commits');
  const livePosition = () =>
    position('SELECT commit_position::text AS position FROM checkpoints WHERE name = $1', [KAFKA_PUBLISHER_NAME]);

  /** `streams × perStream` events, one per stream in each round, ten streams to an append. */
  async function appendEvents(categories: string[], streams: number, perStream: number): Promise<string[]> {
    const ids = Array.from({ length: streams }, (_, index) => streamOf(categories[index % categories.length]));
    for (let version = 0; version < perStream; version += 1) {
      for (let first = 0; first < ids.length; first += 10) {
        await store.append(
          ids.slice(first, first + 10).map((streamId) => ({
            streamId,
            expectedVersion: version,
            events: [{ type: 'TallyCounted', data: { n: version + 1, note: 'x'.repeat(40) } }],
          })),
          metadata,
        );
      }
    }
    return ids;
  }

  /** The commit position of each event id, to tell which events a replay sent twice. */
  async function positionsOf(eventIds: readonly string[]): Promise<bigint[]> {
    const rows: { position: string }[] = await dataSource.query(
      `SELECT c.commit_position::text AS position
         FROM events e JOIN event_commits c ON e.global_position BETWEEN c.first_position AND c.last_position
          AND e.transaction_id = c.transaction_id WHERE e.event_id = ANY($1::uuid[])`,
      [eventIds],
    );
    return rows.map((row) => BigInt(row.position));
  }

  /** Every stream of `streamIds` complete (versions 1…perStream at first sight, in order) and on one partition. */
  function expectEveryStreamInOrder(messages: readonly ReadMessage[], streamIds: readonly string[], perStream: number) {
    const byKey = versionsByKey(messages);
    expect([...byKey.keys()].sort()).toEqual([...streamIds].sort());
    const expected = Array.from({ length: perStream }, (_, index) => index + 1);
    for (const [key, versions] of byKey) {
      // A copy sent again after a crash comes after its first sight; the first sights keep the stream's order.
      const firstSeen = versions.filter((version, index) => versions.indexOf(version) === index);
      expect({ key, versions: firstSeen }).toEqual({ key, versions: expected });
    }
    const partitions = new Map<string, Set<number>>();
    for (const message of messages)
      partitions.set(message.key, (partitions.get(message.key) ?? new Set()).add(message.partition));
    expect([...partitions.values()].every((set) => set.size === 1)).toBe(true);
  }

  function copiesById(messages: readonly ReadMessage[]): Map<string, number> {
    const copies = new Map<string, number>();
    for (const message of messages)
      copies.set(String(message.value.id), (copies.get(String(message.value.id)) ?? 0) + 1);
    return copies;
  }

  function done(outcome: RepublishOutcome): Extract<RepublishOutcome, { run: RepublishRun }> {
    if (outcome.outcome === 'refused') throw new Error(`Refused: ${outcome.reason}`);
    return outcome;
  }

  it('sends what the live topics had to its own prefix, marked as a replay, while the live publisher goes on', async () => {
    const livePrefix = uniqueTopicPrefix();
    const replayPrefix = uniqueTopicPrefix();
    const before = await appendEvents(['wallet', 'payment', 'subscription'], 120, 25);
    livePublisher(livePrefix);
    const allBefore = await newestPosition();
    await waitFor(livePosition, (at) => at === allBefore, 'the live publisher to publish the history');

    // New events keep coming once the replay is under way (its end fixed); they go to the live topics only.
    const meanwhile: { appending?: Promise<string[]> } = {};
    const outcome = done(
      await republisher().republish({
        topicPrefix: replayPrefix,
        batchSize: 200,
        producers: 2,
        onProgress: () => void (meanwhile.appending ??= appendEvents(['wallet', 'payment'], 60, 10)),
      }),
    );
    const during = await (meanwhile.appending ?? Promise.reject(new Error('no step reported')));
    expect(outcome).toMatchObject({ outcome: 'done', sentNow: 3_000 });
    expect(outcome.run).toEqual({
      topicPrefix: replayPrefix,
      toPosition: allBefore,
      commitPosition: allBefore,
      eventsSent: '3000',
      finished: true,
    });

    const replayed = await readAllMessages(replayPrefix, 3_000);
    expect(replayed).toHaveLength(3_000);
    expect(copiesById(replayed).size).toBe(3_000);
    expect(new Set(replayed.map((message) => message.topic))).toEqual(
      new Set(['wallet', 'payment', 'subscription'].map((category) => `${replayPrefix}${category}`)),
    );
    expect(replayed.every((message) => message.headers[KAFKA_HEADERS.replay] === replayPrefix)).toBe(true);
    expectEveryStreamInOrder(replayed, before, 25);

    // The live topics: everything, once, in order, and no replay header.
    const allAfter = await newestPosition();
    await waitFor(livePosition, (at) => at === allAfter, 'the live publisher to publish the new events');
    const live = await readAllMessages(livePrefix, 3_600);
    expect(live).toHaveLength(3_600);
    expect(live.some((message) => KAFKA_HEADERS.replay in message.headers)).toBe(false);
    // The republish picks each partition itself (for its producer threads): the one the live producer's murmur2 chose.
    const livePartitions = new Map(live.map((message) => [message.key, message.partition]));
    expect(replayed.filter((message) => message.partition !== livePartitions.get(message.key))).toEqual([]);
    expectEveryStreamInOrder(
      live.filter((message) => before.includes(message.key)),
      before,
      25,
    );
    expectEveryStreamInOrder(
      live.filter((message) => during.includes(message.key)),
      during,
      10,
    );

    // Run again, it has nothing left to send; another end for the same prefix is refused.
    expect(done(await republisher().republish({ topicPrefix: replayPrefix }))).toMatchObject({ sentNow: 0 });
    expect(await republisher().republish({ topicPrefix: replayPrefix, toPosition: allAfter })).toEqual({
      outcome: 'refused',
      reason: expect.stringContaining(`ends at ${allBefore}`) as unknown,
    });
  });

  it('stops at --to-position, and after a stop or a crash continues; the crash sends one step twice, no more', async () => {
    const prefix = uniqueTopicPrefix();
    const streamIds = await appendEvents(['wallet', 'user'], 80, 25);
    const end = await newestPosition();
    // The history holds the first spec's events too: the replay starts at the beginning.
    const total = await eventsUpTo(end);
    await appendEvents(['wallet'], 10, 5); // after the end: never replayed

    // Stopped (a SIGINT) after its second step: the position is stored, nothing is in flight.
    const stop = new AbortController();
    let steps = 0;
    const stopped = done(
      await republisher().republish({
        topicPrefix: prefix,
        toPosition: end,
        batchSize: 150,
        signal: stop.signal,
        onProgress: () => {
          steps += 1;
          if (steps === 2) stop.abort();
        },
      }),
    );
    expect(stopped).toMatchObject({ outcome: 'stopped', sentNow: 300, run: { eventsSent: '300', finished: false } });

    // Crashes after the broker acknowledged its fourth step, before storing its position.
    let acknowledged = 0;
    await expect(
      republisher().republish({
        topicPrefix: prefix,
        batchSize: 150,
        afterAcknowledged: () => {
          acknowledged += 1;
          if (acknowledged === 4) throw new Error('the process died before the position was stored');
        },
      }),
    ).rejects.toThrow('the process died');
    const crashedAt = (await republisher().run(prefix))?.commitPosition ?? '0';
    expect(await republisher().run(prefix)).toMatchObject({ eventsSent: '750', finished: false });

    const finished = done(await republisher().republish({ topicPrefix: prefix, batchSize: 150 }));
    expect(finished).toMatchObject({ outcome: 'done', run: { toPosition: end, commitPosition: end, finished: true } });

    const messages = await readAllMessages(prefix, total + 150);
    expect(messages).toHaveLength(total + 150);
    const copies = copiesById(messages);
    expect(copies.size).toBe(total);
    const twice = [...copies].filter(([, count]) => count === 2).map(([id]) => id);
    expect(twice).toHaveLength(150);
    // The copies are the step after the position the crash left stored.
    const twicePositions = await positionsOf(twice);
    expect(twicePositions.every((at) => at > BigInt(crashedAt))).toBe(true);
    expectEveryStreamInOrder(
      messages.filter((message) => streamIds.includes(message.key)),
      streamIds,
      25,
    );
  });

  it('cuts each step into many sends, one acknowledged before the next; every stream stays in order', async () => {
    const prefix = uniqueTopicPrefix();
    const streamIds = await appendEvents(['wallet', 'payment'], 40, 30);
    const end = await newestPosition();
    const total = await eventsUpTo(end);
    // A step of 1,000 events in sends of about 60 messages: a stream's versions cross many sends and steps.
    // Three producer threads: each partition always through the same one.
    const outcome = done(
      await republisher().republish({
        topicPrefix: prefix,
        toPosition: end,
        batchSize: 1_000,
        maxSendBytes: 60_000,
        producers: 3,
      }),
    );
    expect(outcome).toMatchObject({ outcome: 'done', sentNow: total });
    const replayed = await readAllMessages(prefix, total);
    expect(replayed).toHaveLength(total);
    expect(copiesById(replayed).size).toBe(total);
    expectEveryStreamInOrder(
      replayed.filter((message) => streamIds.includes(message.key)),
      streamIds,
      30,
    );
  });

  it('does not move the position when one producer’s send fails mid-step, though the other’s part was sent', async () => {
    const prefix = uniqueTopicPrefix();
    // The `audit` topic has one partition, so one producer thread owns it, and refuses any record batch: a send of
    // that producer fails while the other producer sends its part of the same step (the `wallet` partitions).
    const admin = kafkaClient().admin();
    await admin.connect();
    try {
      await admin.createTopics({
        topics: [
          {
            topic: `${prefix}audit`,
            numPartitions: 1,
            replicationFactor: 1,
            configEntries: [{ name: 'max.message.bytes', value: '100' }],
          },
        ],
        waitForLeaders: true,
      });
      const walletsBefore = await appendEvents(['wallet'], 40, 10);
      const audits = await appendEvents(['audit'], 10, 1);
      const walletsAfter = await appendEvents(['wallet'], 40, 5);
      const end = await newestPosition();
      const total = await eventsUpTo(end);
      const batchSize = 100;

      await expect(
        republisher().republish({ topicPrefix: prefix, toPosition: end, batchSize, producers: 2 }),
      ).rejects.toThrow(/Producer [12] of 2/);
      const failedAt = (await republisher().run(prefix))?.commitPosition ?? '0';
      const firstAudit = (await positionsOf(await eventIdsOf(audits))).reduce((a, b) => (a < b ? a : b));
      // Stored: the steps before the one with the audit events, not that one.
      expect(BigInt(failedAt)).toBeLessThan(firstAudit);
      expect(await eventsUpTo(failedAt)).toBeGreaterThan(0);
      // The other producer's part of the failed step did reach the broker, beyond the stored position.
      const sentSoFar = await readAllMessages(prefix, await eventsUpTo(failedAt));
      const beyond = await positionsOf(sentSoFar.map((message) => String(message.value.id)));
      expect(beyond.some((at) => at > BigInt(failedAt))).toBe(true);
      expect(sentSoFar.some((message) => message.topic === `${prefix}audit`)).toBe(false);

      // Once the topic takes them, the run continues from the stored position: the failed step again, no more.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: `${prefix}audit`,
            configEntries: [{ name: 'max.message.bytes', value: '1048588' }],
          },
        ],
      });
      const finished = done(await republisher().republish({ topicPrefix: prefix, batchSize }));
      expect(finished.run).toMatchObject({ commitPosition: end, finished: true });
      const messages = await readAllMessages(prefix, total);
      const copies = copiesById(messages);
      expect(copies.size).toBe(total);
      const twice = [...copies].filter(([, count]) => count > 1).map(([id]) => id);
      expect(twice.length).toBeGreaterThan(0);
      expect(twice.length).toBeLessThanOrEqual(batchSize);
      expect((await positionsOf(twice)).every((at) => at > BigInt(failedAt))).toBe(true);
      expectEveryStreamInOrder(
        messages.filter((message) => walletsBefore.includes(message.key)),
        walletsBefore,
        10,
      );
      expectEveryStreamInOrder(
        messages.filter((message) => walletsAfter.includes(message.key)),
        walletsAfter,
        5,
      );
    } finally {
      await admin.disconnect();
    }
  });

  /** The ids of every event of `streamIds`. */
  async function eventIdsOf(streamIds: readonly string[]): Promise<string[]> {
    const rows: { id: string }[] = await dataSource.query(
      'SELECT event_id::text AS id FROM events WHERE stream_id = ANY($1::text[])',
      [streamIds],
    );
    return rows.map((row) => row.id);
  }

  it('continues after its process is killed mid-way, sending again at most the step in flight', async () => {
    const prefix = uniqueTopicPrefix();
    const streamIds = await appendEvents(['payment', 'subscription', 'wallet'], 150, 40);
    const batchSize = 20;
    const end = await newestPosition();
    const total = await eventsUpTo(end);

    const child = startChild(prefix, batchSize, end);
    // Killed once it is well under way: some steps stored, most still to go.
    await waitFor(
      async () => (await republisher().run(prefix))?.eventsSent ?? '0',
      (sent) => Number(sent) >= 1_000,
      'the child to send a thousand events',
      120_000,
    );
    child.kill('SIGKILL');
    await child.exited;
    // Its database session ends once PostgreSQL sees the socket closed, after any statement it was running: until
    // then it holds the prefix's lock (a continuation would be refused) and perhaps an UPDATE of the position.
    await waitFor(
      async () => {
        const rows: { held: number }[] = await dataSource.query(
          `SELECT count(*)::int AS held FROM pg_locks
            WHERE locktype = 'advisory' AND classid = $1::int::oid AND objid = hashtext($2)::oid AND objsubid = 2`,
          [REPUBLISH_LOCK_NAMESPACE, prefix],
        );
        return rows[0].held;
      },
      (held) => held === 0,
      'the killed child’s session to end',
    );
    const killedAt = await republisher().run(prefix);
    expect(killedAt?.finished).toBe(false);
    expect(Number(killedAt?.eventsSent)).toBeLessThan(total);

    const finished = done(await republisher().republish({ topicPrefix: prefix, batchSize }));
    expect(finished.run).toMatchObject({ commitPosition: end, eventsSent: String(total), finished: true });
    const messages = await readAllMessages(prefix, total);
    const copies = copiesById(messages);
    expect(copies.size).toBe(total);
    const twice = [...copies].filter(([, count]) => count > 1).map(([id]) => id);
    expect(messages.length - total).toBe(twice.length);
    // Only the step in flight when it died: at most one step, just after the stored position.
    expect(twice.length).toBeLessThanOrEqual(batchSize);
    const twicePositions = await positionsOf(twice);
    expect(twicePositions.every((at) => at > BigInt(killedAt?.commitPosition ?? '0'))).toBe(true);
    expectEveryStreamInOrder(
      messages.filter((message) => streamIds.includes(message.key)),
      streamIds,
      40,
    );
  });

  function startChild(
    prefix: string,
    batchSize: number,
    toPosition: string,
  ): { kill(signal: NodeJS.Signals): void; exited: Promise<void> } {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'republish-child.fixtures.ts')], {
      env: {
        ...process.env,
        REPUBLISH_DATABASE_URL: dataSource.options.type === 'postgres' ? String(dataSource.options.url) : '',
        KAFKA_BROKERS: testBrokers().join(','),
        REPUBLISH_TOPIC_PREFIX: prefix,
        REPUBLISH_BATCH_SIZE: String(batchSize),
        REPUBLISH_TO_POSITION: toPosition,
        REPUBLISH_STEP_DELAY_MS: '5',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<void>((resolve, reject) =>
      child.once('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`The child ended with ${code ?? signal}:\n${output}`)),
      ),
    );
    exited.catch(() => undefined);
    return { kill: (signal) => child.kill(signal), exited };
  }
});
