import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { repositoryRoot } from '../config/app-config';

/*
 * What the Kafka specs (`*.kafka-spec.ts`, `npm run test:kafka`) share. They run against the real broker that
 * scripts/kafka-broker.sh started; without one they fail, they are never skipped.
 */

/** The broker `scripts/test-kafka.sh` started (the same KAFKA_PORT the broker script reads). */
export function testBrokers(): string[] {
  return [`127.0.0.1:${process.env.KAFKA_PORT ?? '19092'}`];
}

/** Every spec publishes under its own prefix, so topics of earlier specs on the same broker never mix in. */
export function uniqueTopicPrefix(): string {
  return `t${randomBytes(4).toString('hex')}.`;
}

/** Stops the broker, or starts it again on the same log directory: what an outage looks like to the publisher. */
export async function brokerScript(command: 'stop' | 'start-again'): Promise<void> {
  const args = command === 'stop' ? ['stop'] : ['start', '--keep-data'];
  await promisify(execFile)('bash', [join(repositoryRoot(), 'scripts', 'kafka-broker.sh'), ...args], {
    timeout: 180_000,
  });
}

export async function waitFor<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last saw ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

export interface ReadMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  headers: Record<string, string>;
  value: Record<string, unknown>;
}

export function kafkaClient(): Kafka {
  return new Kafka({ clientId: 'kupa-test-reader', brokers: testBrokers(), logLevel: logLevel.NOTHING });
}

/**
 * Every message of the topics under `prefix`, read from the beginning once their count reaches `count`: per
 * partition in offset order, partitions one after another. Reads the high watermarks, then fetches up to them with a
 * consumer of its own group, so it sees what the broker holds, duplicates included.
 */
export async function readAllMessages(prefix: string, count: number, timeoutMs = 120_000): Promise<ReadMessage[]> {
  const kafka = kafkaClient();
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await waitFor(
      async () => {
        const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
        const offsets = await Promise.all(
          topics.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) })),
        );
        return offsets;
      },
      (offsets) =>
        offsets.reduce(
          (sum, { partitions }) => sum + partitions.reduce((total, { high }) => total + Number(high), 0),
          0,
        ) >= count,
      `${count} messages under ${prefix}`,
      timeoutMs,
    );
    return await fetchUpTo(kafka, ends, timeoutMs);
  } finally {
    await admin.disconnect();
  }
}

async function fetchUpTo(
  kafka: Kafka,
  ends: { topic: string; partitions: { partition: number; high: string }[] }[],
  timeoutMs: number,
): Promise<ReadMessage[]> {
  const remaining = new Map<string, number>();
  for (const { topic, partitions } of ends) {
    for (const { partition, high } of partitions) {
      if (Number(high) > 0) remaining.set(`${topic}/${partition}`, Number(high));
    }
  }
  const byPartition = new Map<string, ReadMessage[]>();
  const consumer = kafka.consumer({ groupId: `kupa-test-reader-${randomBytes(4).toString('hex')}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: ends.map(({ topic }) => topic), fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Reading timed out with ${JSON.stringify([...remaining])} left`)),
        timeoutMs,
      );
      if (remaining.size === 0) {
        clearTimeout(timer);
        resolve();
        return;
      }
      consumer
        .run({
          eachMessage: async ({ topic, partition, message }) => {
            const at = `${topic}/${partition}`;
            const end = remaining.get(at);
            if (end === undefined || Number(message.offset) >= end) return;
            const read = byPartition.get(at) ?? [];
            read.push({
              topic,
              partition,
              offset: message.offset,
              key: message.key?.toString('utf8') ?? '',
              headers: Object.fromEntries(
                Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]),
              ),
              value: JSON.parse(message.value?.toString('utf8') ?? 'null') as Record<string, unknown>,
            });
            byPartition.set(at, read);
            if (Number(message.offset) === end - 1) remaining.delete(at);
            if (remaining.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return [...byPartition.keys()].sort().flatMap((at) => byPartition.get(at) ?? []);
}

/** The stream versions each key's messages carry, in the order the broker holds them. */
export function versionsByKey(messages: readonly ReadMessage[]): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  for (const message of messages) {
    const versions = byKey.get(message.key) ?? [];
    versions.push(Number(message.value.streamVersion));
    byKey.set(message.key, versions);
  }
  return byKey;
}
