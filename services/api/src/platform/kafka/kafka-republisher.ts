import type { DataSource, QueryRunner } from 'typeorm';
import type { EventTypeRegistry } from '../event-store/event-type-registry';
import {
  KAFKA_PUBLISHER_NAME,
  KafkaEventPublisher,
  type KafkaPublisherOptions,
  loadJavaPartitioner,
} from './kafka-event-publisher';
import { KAFKA_HEADERS, topicOf, type KafkaMessage } from './published-event';
import { encodeSends } from './republish-handover';
import { cutIntoSends, PartitionAssignment, RepublishProducers } from './republish-producers';
import { readRepublishStep } from './republish-reader';

/** Events read and sent per step by default: about 1 MB of messages at a few hundred bytes each. */
export const DEFAULT_REPUBLISH_BATCH_SIZE = 2_000;
/** The most a step may hold; with the one read ahead, two steps of events are in memory at most. */
export const MAX_REPUBLISH_BATCH_SIZE = 20_000;
/**
 * The most message bytes (keys, values, headers) one send carries. A step is split into sends of at most this many,
 * so that no partition's record batch passes the broker's default `message.max.bytes` (1 MiB).
 */
export const DEFAULT_REPUBLISH_SEND_BYTES = 900_000;
/**
 * Producer threads by default (docs/adr/0124): one moves kafkajs's encoding, the bound of a single thread, to the
 * second core beside the main thread's reading; on two cores a second did no better and cost memory. Each producer has
 * one request in flight, so the broker sees this many at once.
 */
export const DEFAULT_REPUBLISH_PRODUCERS = 1;
/** The most producer threads: each is a thread of its own (tens of MiB) and a connection to every broker. */
export const MAX_REPUBLISH_PRODUCERS = 8;
/** First key of the two-key advisory lock that lets one run at a time write to a prefix. */
export const REPUBLISH_LOCK_NAMESPACE = 0x4b555052;

/** The stored state of one run: `kafka_republish_runs`. */
export interface RepublishRun {
  topicPrefix: string;
  /** The last commit position it republishes (inclusive), fixed when the run started. */
  toPosition: string;
  /** Up to here the broker acknowledged everything: a restart continues after it. */
  commitPosition: string;
  eventsSent: string;
  finished: boolean;
}

export interface RepublishOptions {
  /** The replay's topic prefix; must differ from the live publisher's (checked by the caller that knows it). */
  topicPrefix: string;
  /**
   * Where a new run ends (inclusive). Defaults to the live publisher's checkpoint, the position after which its
   * topics hold every event, or to the newest commit position without a live publisher. A run that exists keeps its
   * own end, and a different one given here is refused.
   */
  toPosition?: string;
  batchSize?: number;
  /** Producer threads, each with the partitions dealt to it (1 to `MAX_REPUBLISH_PRODUCERS`). */
  producers?: number;
  maxSendBytes?: number;
  /** Told after each acknowledged step, once its position is stored. */
  onProgress?: (run: RepublishRun) => void;
  /**
   * Called after the broker acknowledged a step and before its position is stored: the window in which a crash
   * sends that step again on the next start. Specs throw here to be such a crash.
   */
  afterAcknowledged?: () => void | Promise<void>;
  /** Stops after the step in flight, its position stored (a SIGINT of the command). */
  signal?: AbortSignal;
}

export type RepublishOutcome =
  | { outcome: 'done' | 'stopped'; run: RepublishRun; sentNow: number; elapsedMs: number }
  | { outcome: 'refused'; reason: string };

interface RunRow {
  topic_prefix: string;
  to_position: string;
  commit_position: string;
  events_sent: string;
  finished: boolean;
}

const RUN_COLUMNS = `topic_prefix, to_position::text AS to_position, commit_position::text AS commit_position,
  events_sent::text AS events_sent, finished_at IS NOT NULL AS finished`;

function toRun(row: RunRow): RepublishRun {
  return {
    topicPrefix: row.topic_prefix,
    toPosition: row.to_position,
    commitPosition: row.commit_position,
    eventsSent: row.events_sent,
    finished: row.finished,
  };
}

/**
 * `kupa events republish` (docs/adr/0116-kafka-republish.md): sends the history, in commit order, to topics of its
 * own prefix, for a consumer that starts after the live topics' retention dropped the beginning. It is not a
 * processor: it has its own checkpoint (`kafka_republish_runs`), never touches the live publisher's, and a restart
 * continues after the last acknowledged step. Every message is the live one plus the `replay` header.
 *
 * A step is read while the one before it is being sent, and sent in pieces of at most `maxSendBytes`, one after
 * another on one idempotent producer, each acknowledged by all in-sync replicas before the next: a stream's events
 * reach their partition in version order, and at most one step is sent again after a crash.
 */
export class KafkaRepublisher {
  constructor(
    private readonly dataSource: DataSource,
    /** The types' current schema versions and upcasters: an old event goes out upcast, as the live publisher sends it. */
    private readonly eventTypes: EventTypeRegistry,
    private readonly kafka: Omit<KafkaPublisherOptions, 'topicPrefix'>,
  ) {}

  async republish(options: RepublishOptions): Promise<RepublishOutcome> {
    const batchSize = options.batchSize ?? DEFAULT_REPUBLISH_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_REPUBLISH_BATCH_SIZE)
      return {
        outcome: 'refused',
        reason: `The batch size must be a whole number from 1 to ${MAX_REPUBLISH_BATCH_SIZE}`,
      };
    const producers = options.producers ?? DEFAULT_REPUBLISH_PRODUCERS;
    if (!Number.isInteger(producers) || producers < 1 || producers > MAX_REPUBLISH_PRODUCERS)
      return {
        outcome: 'refused',
        reason: `The number of producers must be a whole number from 1 to ${MAX_REPUBLISH_PRODUCERS}`,
      };
    // One run per prefix at a time: a second would interleave its sends with the first one's.
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      const [{ locked }] = (await lock.query('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked', [
        REPUBLISH_LOCK_NAMESPACE,
        options.topicPrefix,
      ])) as { locked: boolean }[];
      if (!locked) return { outcome: 'refused', reason: `Another republish to ${options.topicPrefix} is running` };
      try {
        const run = await this.startOrResume(lock, options);
        if ('reason' in run) return { outcome: 'refused', reason: run.reason };
        return await this.send(lock, run, batchSize, producers, options);
      } finally {
        await lock.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [
          REPUBLISH_LOCK_NAMESPACE,
          options.topicPrefix,
        ]);
      }
    } finally {
      await lock.release();
    }
  }

  /** The stored run of `topicPrefix`, if any. */
  async run(topicPrefix: string): Promise<RepublishRun | null> {
    const rows: RunRow[] = await this.dataSource.query(
      `SELECT ${RUN_COLUMNS} FROM kafka_republish_runs WHERE topic_prefix = $1`,
      [topicPrefix],
    );
    return rows[0] ? toRun(rows[0]) : null;
  }

  private async startOrResume(db: QueryRunner, options: RepublishOptions): Promise<RepublishRun | { reason: string }> {
    const existing = await this.run(options.topicPrefix);
    if (existing) {
      if (options.toPosition !== undefined && BigInt(options.toPosition) !== BigInt(existing.toPosition))
        return {
          reason:
            `The republish to ${options.topicPrefix} ends at ${existing.toPosition}, fixed when it started; ` +
            'give no --to-position to continue it, or republish to another prefix',
        };
      return existing;
    }
    const toPosition = options.toPosition ?? (await this.defaultEnd(db));
    const rows: RunRow[] = await db.query(
      `INSERT INTO kafka_republish_runs (topic_prefix, to_position) VALUES ($1, $2::bigint) RETURNING ${RUN_COLUMNS}`,
      [options.topicPrefix, toPosition],
    );
    return toRun(rows[0]);
  }

  /** The live publisher's checkpoint, or the newest commit position where there is no live publisher. */
  private async defaultEnd(db: QueryRunner): Promise<string> {
    const rows: { position: string }[] = await db.query(
      `SELECT coalesce((SELECT commit_position FROM checkpoints WHERE name = $1),
                       (SELECT max(commit_position) FROM event_commits), 0)::text AS position`,
      [KAFKA_PUBLISHER_NAME],
    );
    return rows[0].position;
  }

  private async send(
    db: QueryRunner,
    run: RepublishRun,
    batchSize: number,
    producerCount: number,
    options: RepublishOptions,
  ): Promise<RepublishOutcome> {
    const started = performance.now();
    const topicPrefix = options.topicPrefix;
    const maxSendBytes = options.maxSendBytes ?? DEFAULT_REPUBLISH_SEND_BYTES;
    const headers = { [KAFKA_HEADERS.replay]: topicPrefix };
    const read = (after: string) =>
      readRepublishStep(this.dataSource, this.eventTypes, { after, end: run.toPosition, limit: batchSize }, headers);
    // This thread creates the topics (as the live publisher would) and picks each message's partition and producer;
    // the producer threads only send.
    const topics = new KafkaEventPublisher({ ...this.kafka, topicPrefix });
    const partitionOf = await loadJavaPartitioner();
    const assignment = new PartitionAssignment(producerCount);
    const partitionCounts = new Map<string, number>();
    const { brokers, clientId, topicPartitions, topicReplicationFactor, sendRetries } = this.kafka;
    const producers = new RepublishProducers(producerCount, {
      brokers,
      clientId,
      topicPrefix,
      topicPartitions,
      topicReplicationFactor,
      ...(sendRetries === undefined ? {} : { sendRetries }),
    });
    const prepare = async (step: { messages: KafkaMessage[]; last: string }): Promise<PreparedStep> => {
      const messages = step.messages.map((message) => ({ topic: topicOf(topicPrefix, message.key), message }));
      const unknown = [...new Set(messages.map(({ topic }) => topic))].filter((topic) => !assignment.has(topic));
      if (unknown.length > 0)
        for (const [topic, partitions] of await topics.topicPartitions(unknown)) {
          partitionCounts.set(topic, partitions);
          assignment.add(topic, partitions);
        }
      const byProducer = Array.from({ length: producerCount }, () => [] as typeof messages);
      for (const item of messages) {
        const partition = partitionOf(item.topic, item.message.key, partitionCounts.get(item.topic) ?? 1);
        item.message.partition = partition;
        byProducer[assignment.producerOf(item.topic, partition)].push(item);
      }
      return {
        events: messages.length,
        last: step.last,
        sends: byProducer.map((items) =>
          items.length === 0 ? null : encodeSends([...cutIntoSends(items, maxSendBytes)]),
        ),
      };
    };
    let current = run;
    let sentNow = 0;
    let stopped = false;
    let preparing: Promise<PreparedStep | null> = Promise.resolve(null);
    try {
      const first = await read(current.commitPosition);
      let step = first ? await prepare(first) : null;
      while (step) {
        // Step k goes to the producers while step k+1 is read and made here: two steps in memory at most. Step k+1
        // goes only once every producer acknowledged step k, so an interruption leaves at most one step sent twice.
        const sending = producers.send(step.sends);
        sending.catch(() => undefined);
        step.sends = [];
        preparing = read(step.last).then((next) => (next ? prepare(next) : null));
        preparing.catch(() => undefined);
        await sending;
        await options.afterAcknowledged?.();
        current = await updateRun(
          db,
          `UPDATE kafka_republish_runs
              SET commit_position = $2::bigint, events_sent = events_sent + $3, updated_at = now()
            WHERE topic_prefix = $1 RETURNING ${RUN_COLUMNS}`,
          [topicPrefix, step.last, step.events],
        );
        sentNow += step.events;
        options.onProgress?.(current);
        if (options.signal?.aborted) {
          stopped = true;
          break;
        }
        step = await preparing;
      }
    } finally {
      // A failed step leaves the next one being read (and its topics perhaps being created): it ends first.
      await preparing.catch(() => undefined);
      await Promise.all([producers.close(), topics.disconnect()]);
    }
    if (!stopped && !current.finished) {
      // Reached the end; the position moves there even when the last events were above the last one read.
      current = await updateRun(
        db,
        `UPDATE kafka_republish_runs SET commit_position = to_position, finished_at = now(), updated_at = now()
          WHERE topic_prefix = $1 RETURNING ${RUN_COLUMNS}`,
        [topicPrefix],
      );
    }
    return { outcome: stopped ? 'stopped' : 'done', run: current, sentNow, elapsedMs: performance.now() - started };
  }
}

/** A step read and made into messages, each with its partition, cut into each producer's sends. */
interface PreparedStep {
  /** How many events it holds. */
  events: number;
  /** The commit position of its last event: where the run continues once the step is acknowledged. */
  last: string;
  /** Each producer's sends, encoded for the hand-over (`encodeSends`); null for a producer without messages. */
  sends: (ArrayBuffer | null)[];
}

/** The run an UPDATE … RETURNING left (TypeORM answers an UPDATE with rows and a count unless asked for records). */
async function updateRun(db: QueryRunner, sql: string, parameters: unknown[]): Promise<RepublishRun> {
  const result = (await db.query(sql, parameters, true)) as { records: RunRow[] };
  return toRun(result.records[0]);
}
