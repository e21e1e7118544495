#!/usr/bin/env node
// An example consumer of Kupa's Kafka fan-out (docs/events/README.md): how a downstream service keeps exactly one
// effect per event although Kupa publishes at least once.
//
// Every topic under the prefix is read in a consumer group. Each batch is applied in one transaction of the
// consumer's own PostgreSQL database: the event id goes into `processed_events` first, and only an event whose id was
// new has its effect, so a message published twice (Kupa crashed between the broker's acknowledgement and its
// checkpoint) or read twice (this consumer crashed before committing its offsets) changes nothing the second time.
// The offsets are committed only after the transaction, so nothing is skipped either.
//
// The effect here is a tally per stream: how many events of the stream it applied and the last stream version.
// Because every stream is one key, its events arrive in order: the version applied is always the last one plus one,
// and `events = last_version` for every stream is what exactly-once effects look like.
//
//   KAFKA_BROKERS=127.0.0.1:19092 EXAMPLE_DATABASE_URL=postgres://… node scripts/kafka-example-consumer.mjs
//
// KAFKA_TOPIC_PREFIX (kupa.) chooses the topics, EXAMPLE_GROUP_ID (kupa-example-consumer) the consumer group. It
// reads the topics that exist when it starts, from the beginning for a new group, and stops on SIGINT or SIGTERM.
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS processed_events (
    event_id text PRIMARY KEY,
    processed_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS stream_tallies (
    stream_id text PRIMARY KEY,
    events integer NOT NULL,
    last_version integer NOT NULL
  );`;

function required(name) {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Applies one event unless its id was applied before; returns whether it was new. */
async function applyOnce(client, event) {
  const claimed = await client.query(
    'INSERT INTO processed_events (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING RETURNING event_id',
    [event.id],
  );
  if (claimed.rowCount === 0) return false;
  const tally = await client.query('SELECT last_version FROM stream_tallies WHERE stream_id = $1 FOR UPDATE', [
    event.streamId,
  ]);
  const expected = (tally.rows[0]?.last_version ?? 0) + 1;
  if (event.streamVersion !== expected) {
    // Cannot happen while each stream is one key; a consumer that reads several topics into one table must not
    // assume an order across streams, only within one.
    throw new Error(`Stream ${event.streamId}: version ${event.streamVersion} arrived where ${expected} was due`);
  }
  await client.query(
    `INSERT INTO stream_tallies (stream_id, events, last_version) VALUES ($1, 1, $2)
     ON CONFLICT (stream_id) DO UPDATE SET events = stream_tallies.events + 1, last_version = $2`,
    [event.streamId, event.streamVersion],
  );
  return true;
}

async function main() {
  const prefix = process.env.KAFKA_TOPIC_PREFIX?.trim() || 'kupa.';
  const pool = new pg.Pool({ connectionString: required('EXAMPLE_DATABASE_URL'), max: 2 });
  await pool.query(SCHEMA);
  const kafka = new Kafka({
    clientId: 'kupa-example-consumer',
    brokers: required('KAFKA_BROKERS').split(','),
    logLevel: logLevel.WARN,
  });
  const consumer = kafka.consumer({ groupId: process.env.EXAMPLE_GROUP_ID?.trim() || 'kupa-example-consumer' });
  await consumer.connect();
  await consumer.subscribe({ topics: [new RegExp(`^${escapeRegExp(prefix)}`)], fromBeginning: true });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await consumer.disconnect();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }) => {
      const client = await pool.connect();
      let applied = 0;
      try {
        await client.query('BEGIN');
        for (const message of batch.messages) {
          // The value carries the id too; a consumer that only routes can read the headers alone.
          const event = JSON.parse(message.value.toString('utf8'));
          if (await applyOnce(client, event)) applied += 1;
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
      // Only now may the group's offsets move past these messages.
      for (const message of batch.messages) resolveOffset(message.offset);
      await commitOffsetsIfNecessary();
      await heartbeat();
      const skipped = batch.messages.length - applied;
      console.log(`${batch.topic}[${batch.partition}]: applied ${applied}, skipped ${skipped} already processed`);
    },
  });
  console.log(`Consuming ${prefix}* as group ${process.env.EXAMPLE_GROUP_ID?.trim() || 'kupa-example-consumer'}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
