import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test-support/test-database';
import {
  DEFAULT_KAFKA_TOPIC_PARTITIONS,
  DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
  repositoryRoot,
} from '../config/app-config';
import type { PostgresEventStore } from '../event-store/postgres-event-store';
import { appendLaterVersionFirst, metadata, streamOf, useEventStore } from '../event-store/event-store.fixtures';
import { ProcessorRunner, type Processor } from '../projections/processor-runner';
import { KAFKA_PUBLISHER_NAME, KafkaEventPublisher, type KafkaPublisherOptions } from './kafka-event-publisher';
import {
  brokerScript,
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
 * The publisher against a real Apache Kafka broker (scripts/kafka-broker.sh): the events of a real PostgreSQL event
 * store, the processor runner that moves its checkpoint, and what the broker ends up holding.
 */
describe('KafkaEventPublisher on a real Kafka broker', () => {
  const env = useEventStore();
  let dataSource: DataSource;
  let store: PostgresEventStore;
  const runners: ProcessorRunner[] = [];
  const publishers: KafkaEventPublisher[] = [];

  beforeAll(() => {
    ({ dataSource, store } = env);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await Promise.all(publishers.splice(0).map((publisher) => publisher.disconnect()));
  });

  function publisher(topicPrefix: string, overrides: Partial<KafkaPublisherOptions> = {}): KafkaEventPublisher {
    const made = new KafkaEventPublisher({
      brokers: testBrokers(),
      clientId: 'kupa-test',
      topicPrefix,
      retryBackoff: { baseMs: 100, maxMs: 1_000 },
      sendRetries: 2,
      topicPartitions: DEFAULT_KAFKA_TOPIC_PARTITIONS,
      topicReplicationFactor: DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
      ...overrides,
    });
    publishers.push(made);
    return made;
  }

  function runner(processor: Processor, errors: unknown[] = [], batchSize = 100): ProcessorRunner {
    const made = new ProcessorRunner(dataSource, store, {
      batchSize,
      pollIntervalMs: 20,
      onError: (_name, error) => errors.push(error),
    });
    made.register(processor);
    runners.push(made);
    return made;
  }

  /** The position of the newest event: where the publisher's checkpoint stands once everything is acknowledged. */
  async function lastPosition(): Promise<string> {
    const rows: { position: string }[] = await dataSource.query(
      'SELECT max(commit_position)::text AS position FROM event_commits',
    );
    return rows[0].position;
  }

  async function publishedUpTo(name: string): Promise<string | null> {
    const rows: { position: string }[] = await dataSource.query(
      'SELECT commit_position::text AS position FROM checkpoints WHERE name = $1',
      [name],
    );
    return rows[0]?.position ?? null;
  }

  /**
   * Waits for the checkpoint to reach the newest event. When it does not, the failure also says what the runner
   * reported (`errors`, when given) and which sessions of the database were inside a transaction: a checkpoint that
   * stops short is either a batch the broker keeps refusing or a send that never returns, and these tell them apart.
   */
  async function waitUntilPublished(
    name: string,
    { timeoutMs = 120_000, errors }: { timeoutMs?: number; errors?: readonly unknown[] } = {},
  ): Promise<void> {
    const last = await lastPosition();
    try {
      await waitFor(
        () => publishedUpTo(name),
        (position) => position === last,
        `the checkpoint at ${last}`,
        timeoutMs,
      );
    } catch (timedOut) {
      const sessions: { state: string; seconds: number; query: string }[] = await dataSource.query(
        `SELECT state, extract(epoch FROM now() - xact_start)::int AS seconds, left(query, 100) AS query
           FROM pg_stat_activity
          WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
      );
      const reported = errors === undefined ? 'not collected' : `${errors.length}`;
      const newest = errors?.at(-1);
      throw new Error(
        `${(timedOut as Error).message}; runner errors: ${reported}` +
          (newest === undefined ? '' : `, the last: ${String(newest)}`) +
          `; sessions in a transaction: ${JSON.stringify(sessions)}`,
      );
    }
  }

  /**
   * Appends `streams × perStream` events, one event per stream in each round, `perAppend` streams to an append; the
   * appends of a round run `callers` at a time, and a round starts once the one before it has committed.
   */
  async function appendEvents(
    categories: string[],
    streams: number,
    perStream: number,
    options: { perAppend?: number; callers?: number } = {},
  ): Promise<string[]> {
    const ids = Array.from({ length: streams }, (_, index) => streamOf(categories[index % categories.length]));
    const perAppend = options.perAppend ?? 10;
    for (let version = 0; version < perStream; version += 1) {
      const groups: string[][] = [];
      for (let first = 0; first < ids.length; first += perAppend) groups.push(ids.slice(first, first + perAppend));
      const caller = async (): Promise<void> => {
        for (let group = groups.shift(); group; group = groups.shift()) {
          await store.append(
            group.map((streamId) => ({
              streamId,
              expectedVersion: version,
              events: [{ type: 'TallyCounted', data: { n: version + 1, note: 'x'.repeat(40) } }],
            })),
            metadata,
          );
        }
      };
      await Promise.all(Array.from({ length: options.callers ?? 1 }, caller));
    }
    return ids;
  }

  function expectInOrderPerKey(messages: readonly ReadMessage[], streamIds: readonly string[], perStream: number) {
    const byKey = versionsByKey(messages);
    expect([...byKey.keys()].sort()).toEqual([...streamIds].sort());
    const expected = Array.from({ length: perStream }, (_, index) => index + 1);
    for (const [key, versions] of byKey) {
      // Duplicates may repeat a stretch after an outage; the first sight of each version keeps the stream's order.
      const firstSeen = versions.filter((version, index) => versions.indexOf(version) === index);
      expect({ key, versions: firstSeen }).toEqual({ key, versions: expected });
    }
    const partitionsPerKey = new Map<string, Set<number>>();
    for (const message of messages) {
      const partitions = partitionsPerKey.get(message.key) ?? new Set<number>();
      partitions.add(message.partition);
      partitionsPerKey.set(message.key, partitions);
    }
    expect([...partitionsPerKey.values()].every((partitions) => partitions.size === 1)).toBe(true);
  }

  it('publishes 10,000 events to one topic per category, each stream in order on one partition', async () => {
    const prefix = uniqueTopicPrefix();
    const errors: unknown[] = [];
    const run = runner(publisher(prefix), errors);
    run.start();
    // 200 streams of 50 events over three categories, appended by four callers while the publisher runs.
    const streamIds = await appendEvents(['wallet', 'payment', 'subscription'], 200, 50, { perAppend: 40, callers: 4 });
    await waitUntilPublished(KAFKA_PUBLISHER_NAME, { errors });
    const messages = await readAllMessages(prefix, 10_000);

    expect(messages).toHaveLength(10_000);
    expect(new Set(messages.map((message) => message.value.id)).size).toBe(10_000);
    expect(new Set(messages.map((message) => message.topic))).toEqual(
      new Set([`${prefix}wallet`, `${prefix}payment`, `${prefix}subscription`]),
    );
    for (const message of messages) {
      expect(message.topic).toBe(`${prefix}${message.key.slice(0, message.key.indexOf('-'))}`);
      expect(message.headers).toEqual({
        [KAFKA_HEADERS.eventId]: message.value.id,
        [KAFKA_HEADERS.eventType]: 'TallyCounted',
        [KAFKA_HEADERS.schemaVersion]: '1',
        [KAFKA_HEADERS.streamVersion]: String(message.value.streamVersion),
        [KAFKA_HEADERS.correlationId]: metadata.correlationId,
        [KAFKA_HEADERS.contentType]: 'application/json',
      });
    }
    // The publisher's own partition count (not the test broker's three), and every partition carries streams.
    expect(new Set(messages.map((message) => message.partition)).size).toBe(DEFAULT_KAFKA_TOPIC_PARTITIONS);
    expectInOrderPerKey(messages, streamIds, 50);
    expect(errors).toEqual([]);
  });

  it('publishes a stream in version order across batches when the later version’s transaction began first', async () => {
    const prefix = uniqueTopicPrefix();
    const errors: unknown[] = [];
    const shared = streamOf('wallet');
    await store.append(
      [{ streamId: shared, expectedVersion: 0, events: [{ type: 'TallyCounted', data: { n: 1 } }] }],
      metadata,
    );
    await appendLaterVersionFirst(store, shared, streamOf('payment'), 'TallyCounted');

    // One event per batch: each version waits for the one before it across batches, not only within one.
    runner(publisher(prefix), errors, 1).start();
    await waitUntilPublished(KAFKA_PUBLISHER_NAME, { errors });
    const messages = await readAllMessages(prefix, 4);
    expect(versionsByKey(messages).get(shared)).toEqual([1, 2, 3]);
    expect(errors).toEqual([]);
  });

  it('waits while the broker is down without moving its checkpoint, then resumes and loses nothing', async () => {
    const prefix = uniqueTopicPrefix();
    const errors: unknown[] = [];
    const run = runner(publisher(prefix), errors, 20);
    run.start();
    const before = await appendEvents(['wallet'], 20, 10);
    await waitUntilPublished(KAFKA_PUBLISHER_NAME, { errors });

    // The broker goes away; events keep coming, spread over more streams and over the ones already published.
    const stopped = brokerScript('stop');
    const during = appendEvents(['wallet', 'payment'], 20, 10, { perAppend: 2 });
    await stopped;
    await during;
    const streams = [...before];
    for (let index = 0; index < 5; index += 1) {
      await store.append(
        before.map((streamId) => ({
          streamId,
          expectedVersion: 10 + index,
          events: [{ type: 'TallyCounted', data: { n: 11 + index } }],
        })),
        metadata,
      );
    }
    const stalled = await publishedUpTo(KAFKA_PUBLISHER_NAME);
    await waitFor(
      async () => errors.length,
      (count) => count >= 2,
      'failed batches while the broker is down',
    );
    expect(await publishedUpTo(KAFKA_PUBLISHER_NAME)).toBe(stalled);
    expect(stalled).not.toBe(await lastPosition());

    await brokerScript('start-again');
    await waitUntilPublished(KAFKA_PUBLISHER_NAME, { timeoutMs: 180_000 });
    const total = 20 * 10 + 20 * 10 + 20 * 5;
    const messages = await readAllMessages(prefix, total);
    expect(new Set(messages.map((message) => message.value.id)).size).toBe(total);
    expectInOrderPerKey(
      messages.filter((message) => streams.includes(message.key)),
      streams,
      15,
    );
    const others = messages.filter((message) => !streams.includes(message.key));
    expectInOrderPerKey(others, [...new Set(others.map((message) => message.key))], 10);
  });

  it('creates each topic with the configured partitions, and leaves an existing topic as it is', async () => {
    const prefix = uniqueTopicPrefix();
    const admin = kafkaClient().admin();
    await admin.connect();
    try {
      // Made beforehand with two partitions, as an operator might have: more would move its streams.
      await admin.createTopics({ topics: [{ topic: `${prefix}payment`, numPartitions: 2 }], waitForLeaders: true });
      const warnings: string[] = [];
      const errors: unknown[] = [];
      runner(publisher(prefix, { topicPartitions: 5, warn: (message) => warnings.push(message) }), errors).start();
      const streamIds = await appendEvents(['wallet', 'payment'], 60, 3);
      await waitUntilPublished(KAFKA_PUBLISHER_NAME, { errors });

      const { topics } = await admin.fetchTopicMetadata({ topics: [`${prefix}wallet`, `${prefix}payment`] });
      const shape = Object.fromEntries(
        topics.map(({ name, partitions }) => [
          name,
          { partitions: partitions.length, replicas: partitions[0].replicas.length },
        ]),
      );
      expect(shape).toEqual({
        [`${prefix}wallet`]: { partitions: 5, replicas: 1 },
        [`${prefix}payment`]: { partitions: 2, replicas: 1 },
      });
      expect(warnings).toEqual([`Topic ${prefix}payment has 2 partitions, not the 5 configured; it is used as it is`]);

      const messages = await readAllMessages(prefix, 180);
      expect(messages).toHaveLength(180);
      const walletPartitions = messages
        .filter((message) => message.topic === `${prefix}wallet`)
        .map((m) => m.partition);
      expect(new Set(walletPartitions).size).toBe(5);
      // The key stays the stream id: each stream on one partition, in order.
      expect(messages.every((message) => message.key === message.value.streamId)).toBe(true);
      expectInOrderPerKey(messages, streamIds, 3);
      expect(errors).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });

  it('asks the broker for the configured replicas: more than the single test broker has is refused', async () => {
    const prefix = uniqueTopicPrefix();
    const errors: unknown[] = [];
    const refused = publisher(prefix, { topicReplicationFactor: 2 });
    // Under a checkpoint of its own, so that the events it never publishes are no later spec's business.
    runner(
      { name: 'kafka-publisher-replicas', handles: '*', handle: (events) => refused.handle(events) },
      errors,
    ).start();
    await appendEvents(['wallet'], 1, 1);
    await waitFor(
      async () => errors.length,
      (count) => count > 0,
      'the refused topic creation',
    );
    // kafkajs gathers the broker's refusals, one per topic (the store may hold other categories' events too).
    const refusals = (errors[0] as { errors?: Array<{ type?: string }> }).errors ?? [];
    expect(refusals.length).toBeGreaterThan(0);
    expect(new Set(refusals.map((refusal) => refusal.type))).toEqual(new Set(['INVALID_REPLICATION_FACTOR']));
    const admin = kafkaClient().admin();
    await admin.connect();
    try {
      expect((await admin.listTopics()).filter((topic) => topic.startsWith(prefix))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
    // The publisher's own checkpoint goes past the event appended here, as every other spec leaves it: the next spec
    // publishes only what it appends.
    runner(publisher(uniqueTopicPrefix())).start();
    await waitUntilPublished(KAFKA_PUBLISHER_NAME);
  });

  it('publishes a batch again after a crash between the broker’s acknowledgement and the checkpoint; the example consumer applies it once', async () => {
    const prefix = uniqueTopicPrefix();
    const streamIds = await appendEvents(['wallet', 'subscription'], 10, 30);
    const total = 300;

    // The process dies once the broker has acknowledged its fourth batch and before that batch's transaction
    // commits: the checkpoint stays where the third batch left it, and a dead process sends nothing more.
    const real = publisher(prefix);
    let batches = 0;
    const crashing: Processor = {
      name: KAFKA_PUBLISHER_NAME,
      handles: '*',
      async handle(events) {
        if (batches >= 4) throw new Error('the process is gone');
        await real.handle(events);
        batches += 1;
        if (batches === 4) throw new Error('the process died before the checkpoint moved');
      },
    };
    const errors: unknown[] = [];
    const first = runner(crashing, errors, 50);
    first.start();
    await waitFor(
      async () => errors.length,
      (count) => count > 0,
      'the crash',
    );
    await first.stop();
    await real.disconnect();
    const crashedAt = await publishedUpTo(KAFKA_PUBLISHER_NAME);
    expect(crashedAt).not.toBeNull();

    // Restarted, the publisher takes up from the checkpoint and sends the fourth batch a second time.
    runner(publisher(prefix), [], 50).start();
    await waitUntilPublished(KAFKA_PUBLISHER_NAME);
    const messages = await readAllMessages(prefix, total + 50);
    expect(messages).toHaveLength(total + 50);
    const copies = new Map<string, number>();
    for (const message of messages) {
      const id = String(message.value.id);
      copies.set(id, (copies.get(id) ?? 0) + 1);
    }
    expect(copies.size).toBe(total);
    const sentTwice = [...copies].filter(([, count]) => count === 2).map(([id]) => id);
    expect(sentTwice).toHaveLength(50);
    // The copies are the batch after the checkpoint where the crash left it.
    const twicePositions: { position: string }[] = await dataSource.query(
      `SELECT c.commit_position::text AS position
         FROM events e JOIN event_commits c ON e.global_position BETWEEN c.first_position AND c.last_position
          AND e.transaction_id = c.transaction_id WHERE e.event_id = ANY($1::uuid[])`,
      [sentTwice],
    );
    expect(twicePositions).toHaveLength(50);
    expect(twicePositions.every(({ position }) => BigInt(position) > BigInt(crashedAt ?? '0'))).toBe(true);

    // The example consumer, its own process on its own database, reads all 350 messages and applies 300 events.
    const consumerDatabase = await createTestDatabase();
    try {
      const consumer = await startExampleConsumer(prefix, consumerDatabase.url);
      try {
        await waitFor(
          async () => consumer.messagesRead(),
          (read) => read >= total + 50,
          'the example consumer to read every message',
        );
      } finally {
        await consumer.stop();
      }
      expect(consumer.messagesRead()).toBe(total + 50);
      expect(consumer.output()).toMatch(/skipped [1-9]\d* already processed/);
      expect(await queryDatabase(consumerDatabase.url, 'SELECT count(*)::int AS count FROM processed_events')).toEqual([
        { count: total },
      ]);
      // One effect per event: each stream's tally counted 30 events and ended at version 30.
      expect(
        await queryDatabase(
          consumerDatabase.url,
          'SELECT stream_id, events, last_version FROM stream_tallies ORDER BY stream_id',
        ),
      ).toEqual([...streamIds].sort().map((streamId) => ({ stream_id: streamId, events: 30, last_version: 30 })));
    } finally {
      await consumerDatabase.drop();
    }
  });

  async function queryDatabase(url: string, sql: string): Promise<Record<string, unknown>[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  }

  /**
   * Runs scripts/kafka-example-consumer.mjs as its own process, as a downstream service would. It logs a line per
   * batch (`applied N, skipped M already processed`), from which the spec counts the messages it has read.
   */
  async function startExampleConsumer(
    prefix: string,
    databaseUrl: string,
  ): Promise<{ messagesRead(): number; output(): string; stop(): Promise<void> }> {
    let output = '';
    const child = spawn(process.execPath, [join(repositoryRoot(), 'scripts', 'kafka-example-consumer.mjs')], {
      env: {
        ...process.env,
        KAFKA_BROKERS: testBrokers().join(','),
        KAFKA_TOPIC_PREFIX: prefix,
        EXAMPLE_GROUP_ID: `example-${prefix}`,
        EXAMPLE_DATABASE_URL: databaseUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return {
      messagesRead: () => {
        let read = 0;
        for (const match of output.matchAll(/applied (\d+), skipped (\d+)/g))
          read += Number(match[1]) + Number(match[2]);
        return read;
      },
      output: () => output,
      stop: async () => {
        child.kill('SIGTERM');
        const code = await exited;
        if (code !== 0) throw new Error(`The example consumer exited with ${code}:\n${output}`);
      },
    };
  }
});
