import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../threads/worker-thread';
import type { KafkaPublisherOptions } from './kafka-event-publisher';
import type { KafkaMessage, TopicMessages } from './published-event';

/** What a producer thread is given: the client's settings, without the functions a thread cannot receive. */
export type ProducerThreadOptions = Pick<
  KafkaPublisherOptions,
  'brokers' | 'clientId' | 'topicPrefix' | 'topicPartitions' | 'topicReplicationFactor' | 'sendRetries'
>;

/** A step's sends for one producer: a buffer of `encodeSends` (republish-handover.ts), transferred. */
export type ProducerRequest = { kind: 'step'; step: number; sends: ArrayBuffer } | { kind: 'close' };
export type ProducerReply = { kind: 'acknowledged'; step: number } | { kind: 'failed'; step: number; message: string };

/**
 * Which producer sends each partition of each topic, for the whole run: a partition only ever goes through one
 * producer, whose sends are acknowledged one before the next, so each stream (one partition) keeps its order. The
 * partitions are dealt to the producers in turn, topic after topic, so that each gets about as many.
 */
export class PartitionAssignment {
  private readonly firstProducer = new Map<string, number>();
  private dealt = 0;

  constructor(readonly producers: number) {}

  has(topic: string): boolean {
    return this.firstProducer.has(topic);
  }

  add(topic: string, partitions: number): void {
    if (this.has(topic)) return;
    this.firstProducer.set(topic, this.dealt % this.producers);
    this.dealt += partitions;
  }

  producerOf(topic: string, partition: number): number {
    const first = this.firstProducer.get(topic);
    if (first === undefined) throw new Error(`No producer has topic ${topic}`);
    return (first + partition) % this.producers;
  }
}

/** A message's bytes on the wire, near enough: key, value and headers. */
function messageBytes(message: KafkaMessage): number {
  let bytes = message.key.length + message.value.length + 64;
  // for…in, not Object.entries: no array of pairs made per message (the main thread does this for every event).
  const { headers } = message;
  for (const name in headers) bytes += name.length + headers[name].length + 8;
  return bytes;
}

/**
 * Consecutive sends of at most `maxBytes` each (a larger message goes alone), each a list per topic in the order
 * given, so that no partition's record batch passes the broker's `message.max.bytes`.
 */
export function* cutIntoSends(
  messages: Iterable<{ topic: string; message: KafkaMessage }>,
  maxBytes: number,
): Generator<TopicMessages[]> {
  let byTopic = new Map<string, KafkaMessage[]>();
  let bytes = 0;
  for (const { topic, message } of messages) {
    const size = messageBytes(message);
    if (bytes > 0 && bytes + size > maxBytes) {
      yield [...byTopic].map(([name, list]) => ({ topic: name, messages: list }));
      byTopic = new Map();
      bytes = 0;
    }
    const list = byTopic.get(topic) ?? [];
    list.push(message);
    byTopic.set(topic, list);
    bytes += size;
  }
  if (bytes > 0) yield [...byTopic].map(([name, list]) => ({ topic: name, messages: list }));
}

/** How long a producer may take to disconnect at the end of a run before its thread is terminated. */
const PRODUCER_CLOSE_TIMEOUT_MS = 10_000;

interface Pending {
  step: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The republish's producer threads (docs/adr/0124): each owns an idempotent producer (`acks=all`, one request in
 * flight) for the partitions `PartitionAssignment` gives it. A step goes to every producer that has messages in it and
 * counts as acknowledged once all of them acknowledged their part; a producer's failure fails the step, after the
 * others finished theirs (so that nothing of the step is still in flight when the run stops).
 */
export class RepublishProducers {
  private readonly pending = new Map<number, Pending>();
  private readonly workers: Worker[];
  private readonly exited: Promise<void>[];
  private broken: Error | null = null;
  private steps = 0;

  constructor(count: number, options: ProducerThreadOptions) {
    this.workers = Array.from({ length: count }, (_, index) => {
      const worker = startWorkerThread({ directory: __dirname, name: 'kafka-republish.worker' }, options);
      worker.on('message', (reply: ProducerReply) => {
        const pending = this.pending.get(index);
        if (!pending || pending.step !== reply.step) return;
        this.pending.delete(index);
        if (reply.kind === 'acknowledged') pending.resolve();
        else pending.reject(new Error(`Producer ${index + 1} of ${count}: ${reply.message}`));
      });
      return worker;
    });
    // A thread that dies (an error thrown outside a send, or it could not start) fails what it had and every later
    // step: the run cannot know which of its messages reached the broker.
    this.exited = this.workers.map(
      (worker, index) =>
        new Promise<void>((resolve) => {
          const fail = (error: Error) => {
            this.broken ??= error;
            this.pending.get(index)?.reject(error);
            this.pending.delete(index);
          };
          worker.on('error', (error) => fail(new Error(`Producer ${index + 1} of ${count} failed: ${error.message}`)));
          worker.once('exit', (code) => {
            fail(new Error(`Producer ${index + 1} of ${count} stopped (exit code ${code})`));
            resolve();
          });
        }),
    );
  }

  get count(): number {
    return this.workers.length;
  }

  /**
   * Sends a step: `sendsByProducer[i]` are producer i's sends, in order, encoded by `encodeSends` (null: none). Each
   * buffer is transferred, so it is unusable here afterwards. Resolves once all are acknowledged.
   */
  async send(sendsByProducer: readonly (ArrayBuffer | null)[]): Promise<void> {
    if (this.broken) throw this.broken;
    const step = (this.steps += 1);
    const parts = sendsByProducer.map((sends, index) =>
      sends === null
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            this.pending.set(index, { step, resolve, reject });
            this.workers[index].postMessage({ kind: 'step', step, sends } satisfies ProducerRequest, [sends]);
          }),
    );
    const results = await Promise.allSettled(parts);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Disconnects every producer and waits for the threads to end; one that does not end in time is terminated. */
  async close(): Promise<void> {
    for (const worker of this.workers) worker.postMessage({ kind: 'close' } satisfies ProducerRequest);
    const timer = setTimeout(() => {
      for (const worker of this.workers) void worker.terminate();
    }, PRODUCER_CLOSE_TIMEOUT_MS);
    try {
      await Promise.all(this.exited);
    } finally {
      clearTimeout(timer);
    }
  }
}
