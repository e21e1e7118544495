/*
 * `kafka-republisher.kafka-spec.ts` runs this as its own process (`node --import tsx`) and kills it with SIGKILL
 * mid-way, as an operator's machine might die under `kupa events republish`. It republishes the database of
 * REPUBLISH_DATABASE_URL to REPUBLISH_TOPIC_PREFIX on KAFKA_BROKERS up to REPUBLISH_TO_POSITION, in steps of
 * REPUBLISH_BATCH_SIZE, and waits REPUBLISH_STEP_DELAY_MS after each acknowledgement: a kill then often lands between
 * the broker's acknowledgement and the stored position, the window that sends a step twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { DEFAULT_KAFKA_TOPIC_PARTITIONS, DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR } from '../config/app-config';
import { EventTypeRegistry } from '../event-store/event-type-registry';
import { KafkaRepublisher } from './kafka-republisher';

async function main(): Promise<void> {
  const dataSource = new DataSource({ type: 'postgres', url: process.env.REPUBLISH_DATABASE_URL });
  await dataSource.initialize();
  const republisher = new KafkaRepublisher(dataSource, new EventTypeRegistry(), {
    brokers: (process.env.KAFKA_BROKERS ?? '').split(','),
    clientId: 'kupa-test-republish',
    topicPartitions: DEFAULT_KAFKA_TOPIC_PARTITIONS,
    topicReplicationFactor: DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
  });
  const outcome = await republisher.republish({
    topicPrefix: process.env.REPUBLISH_TOPIC_PREFIX ?? '',
    toPosition: process.env.REPUBLISH_TO_POSITION,
    batchSize: Number(process.env.REPUBLISH_BATCH_SIZE),
    afterAcknowledged: () => sleep(Number(process.env.REPUBLISH_STEP_DELAY_MS ?? 0)),
  });
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  await dataSource.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
