/*
 * `npm run bench:republish` (scripts/measure-republish.sh, which starts and stops the test broker): the rate of
 * `kupa events republish` (docs/adr/0116), measured apart from `npm run bench`, whose server has no broker. Appends
 * REPUBLISH_EVENTS events (200,000) of the size a ledger event has to a fresh database on DATABASE_URL, republishes
 * them to the broker of KAFKA_BROKERS in steps of REPUBLISH_BATCH_SIZE (the default), once from the start and once
 * more after a stop half-way, and prints JSON: the rates, the CPU each process spent per event (this Node process, its
 * main thread and the threads it started during the run apart; the broker's JVM of KAFKA_BROKER_PID; the PostgreSQL
 * backends of the run's database), the process's peak memory and the load.
 */
import { readdirSync, readFileSync } from 'node:fs';
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
import { DATABASE_SESSION_OPTIONS } from '../database/session-options';

const EVENTS = Number(process.env.REPUBLISH_EVENTS ?? 200_000);
const BATCH_SIZE = Number(process.env.REPUBLISH_BATCH_SIZE ?? DEFAULT_REPUBLISH_BATCH_SIZE);
/** Producer threads (`--producers`); unset, the republisher's default. */
const PRODUCERS = process.env.REPUBLISH_PRODUCERS === undefined ? undefined : Number(process.env.REPUBLISH_PRODUCERS);
const STREAMS = 2_000;
/** Streams per append and events per stream in it: appends of a thousand events seed fast. */
const STREAMS_PER_APPEND = 100;
const EVENTS_PER_STREAM_APPEND = 10;

/** `/proc/<pid>/stat`'s user and system clock ticks (1/100 s here), or 0 once the process or thread is gone. */
function cpuTicks(statPath: string): number {
  try {
    const stat = readFileSync(statPath, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const TICK_MS = 10;

/** This process's threads' ticks by thread id. */
function threadTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) ticks.set(Number(tid), cpuTicks(`/proc/self/task/${tid}/stat`));
  return ticks;
}

/** The ticks of every PostgreSQL backend connected to `database`, summed. */
function backendTicks(database: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (command.startsWith('postgres: ') && command.includes(` ${database} `))
        ticks.set(Number(pid), cpuTicks(`/proc/${pid}/stat`));
    } catch {
      // Ended meanwhile.
    }
  }
  return ticks;
}

/**
 * The CPU per event of one run, in µs. Threads that appear during the run (the producers' worker threads) are
 * sampled every 100 ms, since they end with it; what a thread spent after its last sample is missed (at most 100 ms
 * each). Backends that start during the run count from 0; one that ends within it is missed.
 */
async function measureCpu<T>(database: string, run: () => Promise<T & { sentNow: number }>) {
  const brokerPid = process.env.KAFKA_BROKER_PID;
  const started = { process: process.cpuUsage(), threads: threadTicks(), backends: backendTicks(database) };
  const brokerStart = brokerPid ? cpuTicks(`/proc/${brokerPid}/stat`) : 0;
  const seen = new Map(started.threads);
  const sample = setInterval(() => {
    for (const [tid, ticks] of threadTicks()) seen.set(tid, ticks);
  }, 100);
  let result: T & { sentNow: number };
  // The window on the monotonic clock V8's profiler stamps its samples with, to cut a `node --cpu-prof` profile of
  // this process to the run (docs/benchmarks.md).
  const windowStartUs = process.hrtime.bigint() / 1000n;
  try {
    result = await run();
  } finally {
    clearInterval(sample);
  }
  log(`run window (µs, monotonic): ${windowStartUs} ${process.hrtime.bigint() / 1000n}`);
  for (const [tid, ticks] of threadTicks()) seen.set(tid, ticks);
  const used = process.cpuUsage(started.process);
  const events = Math.max(result.sentNow, 1);
  const perEvent = (ms: number) => Math.round(((ms * 1000) / events) * 10) / 10;
  let newThreadsMs = 0;
  for (const [tid, ticks] of seen) if (!started.threads.has(tid)) newThreadsMs += ticks * TICK_MS;
  let backendsMs = 0;
  for (const [pid, ticks] of backendTicks(database)) backendsMs += (ticks - (started.backends.get(pid) ?? 0)) * TICK_MS;
  return {
    result,
    cpuMicrosecondsPerEvent: {
      node: perEvent((used.user + used.system) / 1000),
      nodeMainThread: perEvent(((seen.get(process.pid) ?? 0) - (started.threads.get(process.pid) ?? 0)) * TICK_MS),
      nodeThreadsStartedByTheRun: perEvent(newThreadsMs),
      broker: brokerPid ? perEvent((cpuTicks(`/proc/${brokerPid}/stat`) - brokerStart) * TICK_MS) : null,
      postgres: perEvent(backendsMs),
    },
  };
}

function log(message: string): void {
  process.stderr.write(`[republish-rate] ${message}\n`);
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const dataSource = new DataSource({
    type: 'postgres',
    url: database.url,
    migrations: platformMigrations,
    extra: { options: DATABASE_SESSION_OPTIONS },
  });
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

    const republisher = new KafkaRepublisher(dataSource, eventTypes, {
      brokers: (process.env.KAFKA_BROKERS ?? `127.0.0.1:${process.env.KAFKA_PORT ?? '19092'}`).split(','),
      clientId: 'kupa-measure-republish',
      topicPartitions: DEFAULT_KAFKA_TOPIC_PARTITIONS,
      topicReplicationFactor: DEFAULT_KAFKA_TOPIC_REPLICATION_FACTOR,
    });
    const databaseName = database.name;
    const options = { batchSize: BATCH_SIZE, ...(PRODUCERS === undefined ? {} : { producers: PRODUCERS }) };
    let peakRssMiB = 0;
    const sample = setInterval(() => (peakRssMiB = Math.max(peakRssMiB, process.memoryUsage().rss / 2 ** 20)), 50);
    const runs: Record<string, unknown>[] = [];
    try {
      // Whole: one run from the start to the end.
      const wholeRun = await measureCpu(databaseName, async () => {
        const outcome = await republisher.republish({ topicPrefix: uniqueTopicPrefix(), ...options });
        if (outcome.outcome === 'refused') throw new Error(outcome.reason);
        return outcome;
      });
      const whole = wholeRun.result;
      runs.push({
        run: 'whole',
        events: whole.sentNow,
        elapsedMs: Math.round(whole.elapsedMs),
        eventsPerSecond: Math.round((whole.sentNow * 1000) / whole.elapsedMs),
        cpuMicrosecondsPerEvent: wholeRun.cpuMicrosecondsPerEvent,
        loadAverage1m: loadavg()[0],
      });
      // Stopped half-way and continued: the continuation reads from the stored position, not from the start.
      const prefix = uniqueTopicPrefix();
      const stop = new AbortController();
      const first = await republisher.republish({
        topicPrefix: prefix,
        ...options,
        signal: stop.signal,
        onProgress: (run) => {
          if (Number(run.eventsSent) >= EVENTS / 2) stop.abort();
        },
      });
      if (first.outcome === 'refused') throw new Error(first.reason);
      const restRun = await measureCpu(databaseName, async () => {
        const outcome = await republisher.republish({ topicPrefix: prefix, ...options });
        if (outcome.outcome === 'refused') throw new Error(outcome.reason);
        return outcome;
      });
      const rest = restRun.result;
      runs.push({ run: 'stopped half-way', events: first.sentNow, elapsedMs: Math.round(first.elapsedMs) });
      runs.push({
        run: 'continued',
        events: rest.sentNow,
        elapsedMs: Math.round(rest.elapsedMs),
        eventsPerSecond: Math.round((rest.sentNow * 1000) / rest.elapsedMs),
        cpuMicrosecondsPerEvent: restRun.cpuMicrosecondsPerEvent,
        loadAverage1m: loadavg()[0],
      });
    } finally {
      clearInterval(sample);
    }
    process.stdout.write(
      `${JSON.stringify({ events: appended, batchSize: BATCH_SIZE, producers: PRODUCERS ?? 'default', runs, peakRssMiB: Math.round(peakRssMiB), node: process.version }, null, 2)}\n`,
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
