import type { Admin, Kafka, LogEntry, Producer } from 'kafkajs';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Processor, RetryBackoff } from '../projections/processor-runner';
import { javaPartition } from './java-murmur2';
import { toTopicMessages, type TopicMessages } from './published-event';

export const KAFKA_PUBLISHER_NAME = 'kafka-publisher';

export interface KafkaPublisherOptions {
  brokers: readonly string[];
  clientId: string;
  topicPrefix: string;
  /**
   * The partitions and replicas of a topic the publisher creates (docs/adr/0062-kafka-topics-and-broker.md); a topic
   * that exists already keeps its own. Their defaults are the configuration's (`KAFKA_TOPIC_PARTITIONS`,
   * `KAFKA_TOPIC_REPLICATION_FACTOR`).
   */
  topicPartitions: number;
  topicReplicationFactor: number;
  /** The wait after a failed batch, doubling up to the maximum while the broker stays out of reach. */
  retryBackoff?: RetryBackoff;
  /** How often kafkajs itself retries one send (or a connection) before the batch counts as failed. */
  sendRetries?: number;
  /** Where kafkajs's own log lines go (its errors during an outage repeat what the batch's failure reports). */
  log?: (entry: { level: 'error' | 'warn' | 'info' | 'debug'; namespace: string; message: string }) => void;
  /** What the publisher itself has to tell the operator (a topic whose shape differs from the configuration). */
  warn?: (message: string) => void;
  /**
   * The topics exist already (the republish's producer threads: their parent created them, docs/adr/0124): a send
   * opens no admin client and asks nothing about topics.
   */
  topicsExist?: boolean;
}

export const DEFAULT_KAFKA_RETRY_BACKOFF: RetryBackoff = Object.freeze({ baseMs: 1_000, maxMs: 30_000 });
const DEFAULT_SEND_RETRIES = 5;

/**
 * kafkajs, loaded at the first batch: its ~145 modules are skipped by a start without Kafka and by each API spec's
 * boot (docs/benchmarks.md, "CI time").
 */
async function loadKafkajs() {
  const kafkajs = await import('kafkajs');
  const { logLevel } = kafkajs;
  const logLevels = {
    [logLevel.ERROR]: 'error',
    [logLevel.WARN]: 'warn',
    [logLevel.INFO]: 'info',
    [logLevel.DEBUG]: 'debug',
    [logLevel.NOTHING]: 'debug',
  } as const;
  return { ...kafkajs, logLevels };
}

/**
 * Java's partitioner, as the producer applies it to a message without a `partition`: murmur2 of the key, made
 * positive, modulo the topic's partition count (kafkajs's `DefaultPartitioner`, so the republish's choice is the live
 * publisher's to the partition). Computed in 32-bit arithmetic (`java-murmur2.ts`), not with kafkajs's `Long`.
 */
export async function loadJavaPartitioner(): Promise<(topic: string, key: string, partitions: number) => number> {
  return Promise.resolve((_topic, key, partitions) => javaPartition(key, partitions));
}

/**
 * The Kafka fan-out (docs/adr/0035-kafka-fan-out.md): a processor over every event that publishes each batch to
 * Kafka, one topic per stream category, the stream id as the key, and returns only once the broker acknowledged the
 * whole batch from all in-sync replicas. The runner moves the checkpoint after that, in the batch's transaction, so
 * an event is published at least once; a crash between the acknowledgement and the checkpoint publishes the batch
 * again, and consumers dedupe by the event id.
 *
 * The producer is idempotent: kafkajs's own retries of a send cannot write a message twice or out of order. A batch
 * that still fails (the broker is down) throws, the runner rolls back and waits with `retryBackoff`, and the
 * producer is discarded: the next try starts a new producer session, so the retried batch cannot trip over sequence
 * numbers the failed session left behind on the broker.
 */
export class KafkaEventPublisher implements Processor {
  readonly name = KAFKA_PUBLISHER_NAME;
  readonly handles = '*' as const;
  readonly retryBackoff: RetryBackoff;
  private kafka: Kafka | null = null;
  private producer: Producer | null = null;
  private admin: Admin | null = null;
  /** Topics known to exist, with their partition count, so that each is created (or found) once per process. */
  private readonly topics = new Map<string, number>();

  constructor(private readonly options: KafkaPublisherOptions) {
    this.retryBackoff = options.retryBackoff ?? DEFAULT_KAFKA_RETRY_BACKOFF;
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    await this.send(toTopicMessages(this.options.topicPrefix, events));
  }

  /**
   * Sends messages made already (the republish cuts its steps by bytes), as one batch acknowledged by all in-sync
   * replicas; a failure discards the producer, as `handle`'s does.
   */
  async send(topicMessages: TopicMessages[]): Promise<void> {
    try {
      if (!this.options.topicsExist) await this.ensureTopics(topicMessages.map(({ topic }) => topic));
      const producer = await this.connectedProducer();
      await producer.sendBatch({ topicMessages, acks: -1 });
    } catch (error) {
      await this.disconnect();
      throw error;
    }
  }

  /**
   * The partition count of each topic, each created first if it is missing (as a send would create it); the republish
   * picks partitions and producers by them.
   */
  async topicPartitions(topics: readonly string[]): Promise<Map<string, number>> {
    try {
      await this.ensureTopics(topics);
    } catch (error) {
      await this.disconnect();
      throw error;
    }
    return new Map(topics.map((topic) => [topic, this.topics.get(topic) ?? this.options.topicPartitions]));
  }

  /** Closes the connections; the next batch opens new ones. */
  async disconnect(): Promise<void> {
    const { producer, admin } = this;
    this.producer = null;
    this.admin = null;
    await Promise.all([producer?.disconnect(), admin?.disconnect()].map((closing) => closing?.catch(() => undefined)));
  }

  /** The client, made at the first batch. */
  private async client(): Promise<{ kafka: Kafka; kafkajs: Awaited<ReturnType<typeof loadKafkajs>> }> {
    const kafkajs = await loadKafkajs();
    if (!this.kafka) {
      const { Kafka, logLevel, logLevels } = kafkajs;
      const log = this.options.log;
      this.kafka = new Kafka({
        clientId: this.options.clientId,
        brokers: [...this.options.brokers],
        retry: {
          retries: this.options.sendRetries ?? DEFAULT_SEND_RETRIES,
          initialRetryTime: 200,
          maxRetryTime: 5_000,
        },
        logLevel: log ? logLevel.INFO : logLevel.NOTHING,
        logCreator:
          () =>
          ({ level, namespace, log: entry }: LogEntry) =>
            log?.({ level: logLevels[level], namespace, message: entry.message }),
      });
    }
    return { kafka: this.kafka, kafkajs };
  }

  private async connectedProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    const { kafka, kafkajs } = await this.client();
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Topics are created by `ensureTopics`, with the broker's defaults, never as a side effect of a metadata read.
      allowAutoTopicCreation: false,
      // Java's partitioner (murmur2 of the key): a Java producer would put a stream on the same partition.
      createPartitioner: kafkajs.Partitioners.DefaultPartitioner,
      retry: { retries: this.options.sendRetries ?? DEFAULT_SEND_RETRIES, initialRetryTime: 200, maxRetryTime: 5_000 },
    });
    await producer.connect();
    this.producer = producer;
    return producer;
  }

  /**
   * A new category (a new kind of stream) gets its topic, with the configured partitions and replicas, through the
   * admin client before the first send to it, never through the broker's auto-creation: the count is then ours, not a
   * broker default. A topic that exists is used as it is, and one with another partition count is only reported,
   * since adding partitions would move streams to other partitions and break their order. On a cluster where the
   * publisher may not create topics, they must exist beforehand (docs/events/README.md).
   */
  private async ensureTopics(topics: readonly string[]): Promise<void> {
    const missing = topics.filter((topic) => !this.topics.has(topic));
    if (missing.length === 0) return;
    if (!this.admin) {
      const admin = (await this.client()).kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    const existing = new Set(await this.admin.listTopics());
    const absent = missing.filter((topic) => !existing.has(topic));
    const numPartitions = this.options.topicPartitions;
    if (absent.length > 0) {
      const replicationFactor = this.options.topicReplicationFactor;
      await this.admin.createTopics({
        topics: absent.map((topic) => ({ topic, numPartitions, replicationFactor })),
        waitForLeaders: true,
      });
    }
    for (const topic of absent) this.topics.set(topic, numPartitions);
    const found = missing.filter((topic) => existing.has(topic));
    if (found.length > 0) {
      const { topics } = await this.admin.fetchTopicMetadata({ topics: found });
      for (const { name, partitions } of topics) {
        if (partitions.length !== numPartitions)
          this.options.warn?.(
            `Topic ${name} has ${partitions.length} partitions, not the ${numPartitions} configured; it is used as it is`,
          );
        this.topics.set(name, partitions.length);
      }
    }
  }
}
