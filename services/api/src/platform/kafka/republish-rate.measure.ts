/*
 * `npm run bench:republish` (scripts/measure-republish.sh, which starts and stops the test broker): the rate of
 * `kupa events republish` (docs/adr/0116), measured apart from `npm run bench`, whose server has no broker. Appends
 * REPUBLISH_EVENTS events (200,000) of the size a ledger event has to a fresh database on DATABASE_URL, republishes
 * them to the broker of KAFKA_BROKERS in steps of REPUBLISH_BATCH_SIZE (the default), once from the start and once
 * more after a stop half-way, and prints JSON: the rates, the process's peak memory and the load.
 */
import { loadavg } from 'node:os';
import { DataSource } from 'typeorm';
import { createTestDatabase } from '../../test-support/test-database';
import { DEFAULT_KAFKA_TOPIC_PARTITIONS, DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR } from '../config/app-config';
import { platformMigrations } from '../database/migrations';
import { metadata, streamOf } from '../event-store/event-store.fixtures';
import { EventTypeRegistry } from '../event-store/event-type-registry';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { InlineProjectionRegistry } from '../projections/inline-projection.registry';
import { DEFAULT_REPUBLISH_BATCH_SIZE, KafkaRepublisher } from './kafka-republisher';
import { uniqueTopicPrefix } from './kafka.fixtures';

const EVENTS = Number(process.env.REPUBLISH_EVENTS ?? 200_000);
const BATCH_SIZE = Number(process.env.REPUBLISH_BATCH_SIZE ?? DEFAULT_REPUBLISH_BATCH_SIZE);
const STREAMS = 2_000;
/** Streams per append and events per stream in it: appends of a thousand events seed fast. */
const STREAMS_PER_APPEND = 100;
const EVENTS_PER_STREAM_APPEND = 10;

function log(message: string): void {
  process.stderr.write(`[republish-rate] ${message}\n`);
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: platformMigrations });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations();
    const eventTypes = new EventTypeRegistry();
    const store = new PostgresEventStore(dataSource, new InlineProjectionRegistry(dataSource, eventTypes), eventTypes);
    const streams = Array.from({ length: STREAMS }, (_, index) => streamOf(index % 3 === 0 ? 'payment' : 'wallet'));
    const versions = new Map<string, number>();
    const seedStarted = performance.now();
    let appended = 0;
    for (let group = 0; appended < EVENTS; group = (group + STREAMS_PER_APPEND) % STREAMS) {
      const ids = streams.slice(group, group + STREAMS_PER_APPEND);
      await store.append(
        ids.map((streamId) => {
          const version = versions.get(streamId) ?? 0;
          versions.set(streamId, version + EVENTS_PER_STREAM_APPEND);
          return {
            streamId,
            expectedVersion: version,
            events: Array.from({ length: EVENTS_PER_STREAM_APPEND }, (_, index) => ({
              type: 'PaymentRecorded',
              data: {
                paymentId: `${streamId}-${version + index}`,
                amountMinor: 12_345,
                currency: 'USD',
                note: 'x'.repeat(120),
              },
            })),
          };
        }),
        metadata,
      );
      appended += ids.length * EVENTS_PER_STREAM_APPEND;
    }
    log(`seeded ${appended} events in ${Math.round(performance.now() - seedStarted)} ms`);

    const republisher = new KafkaRepublisher(dataSource, store, {
      brokers: (process.env.KAFKA_BROKERS ?? `127.0.0.1:${process.env.KAFKA_PORT ?? '19092'}`).split(','),
      clientId: 'kupa-measure-republish',
      topicPartitions: DEFAULT_KAFKA_TOPIC_PARTITIONS,
      topicReplicationFactor: DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
    });
    let peakRssMiB = 0;
    const sample = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, process.memoryUsage().rss / 2 ** 20)), 50);
    const runs: Record<string, unknown>[] = [];
    try {
      // Whole: one run from the start to the end.
      const whole = await republisher.republish({ topicPrefix: uniqueTopicPrefix(), batchSize: BATCH_SIZE });
      if (whole.outcome === 'refused') throw new Error(whole.reason);
      runs.push({
        run: 'whole',
        events: whole.sentNow,
        elapsedMs: Math.round(whole.elapsedMs),
        eventsPerSecond: Math.round((whole.sentNow * 1000) / whole.elapsedMs),
        loadAverage1m: loadavg()[0],
      });
      // Stopped half-way and continued: the continuation reads from the stored position, not from the start.
      const prefix = uniqueTopicPrefix();
      const stop = new AbortController();
      const first = await republisher.republish({
        topicPrefix: prefix,
        batchSize: BATCH_SIZE,
        signal: stop.signal,
        onProgress: (run) => {
          if (Number(run.eventsSent) >= EVENTS / 2) stop.abort();
        },
      });
      const rest = await republisher.republish({ topicPrefix: prefix, batchSize: BATCH_SIZE });
      if (first.outcome === 'refused' || rest.outcome === 'refused') throw new Error('refused');
      runs.push({ run: 'stopped half-way', events: first.sentNow, elapsedMs: Math.round(first.elapsedMs) });
      runs.push({
        run: 'continued',
        events: rest.sentNow,
        elapsedMs: Math.round(rest.elapsedMs),
        eventsPerSecond: Math.round((rest.sentNow * 1000) / rest.elapsedMs),
        loadAverage1m: loadavg()[0],
      });
    } finally {
      clearInterval(sample);
    }
    process.stdout.write(
      `${JSON.stringify({ events: appended, batchSize: BATCH_SIZE, runs, peakRssMiB: Math.round(peakRssMiB), node: process.version }, null, 2)}\n`,
    );
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
