import type { Payment } from '@kupa/proto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { BackupHeader } from './operations/backup';
import {
  chainHash,
  type CommittedEvent,
  PostgresEventStore,
  START_CHECKPOINT,
  verifyStreamHashes,
} from './platform/event-store';
import {
  eventPartitions,
  eventsArePartitioned,
  makePartitionsAhead,
  partitionEvents,
  type EventPartitionPhase,
} from './platform/event-store/event-partitions';
import { adminToken, createActiveUser, type ActiveUser } from './test-support/identity-fixtures';
import { kupa } from './test-support/kupa-cli';
import { manualPayment, transfer } from './test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from './test-support/test-app';

/** Positions per partition here: small, so that the appends of the spec cross partition boundaries. */
const PARTITION_SIZE = 1_000;
const SEEDED_STREAMS = 30;
const SEEDED_VERSIONS = 60;
const SEED_METADATA = { actor: { kind: 'system', id: 'partition-spec' }, correlationId: 'partition-spec' };

/**
 * The bulk of the history, written straight in SQL as a restored or old store holds it: streams of a type no read
 * model follows, hash-chained exactly as the store chains them, with their `streams` heads. The commit trigger
 * numbers them as it numbers every insert.
 */
async function seedInSql(testApp: TestApp): Promise<number> {
  const rows = { streamId: [] as string[], version: [] as number[], data: [] as string[], hash: [] as string[] };
  const heads = { streamId: [] as string[], version: [] as number[], hash: [] as string[] };
  const metadata = { ...SEED_METADATA, schemaVersion: 1 };
  for (let stream = 1; stream <= SEEDED_STREAMS; stream++) {
    const streamId = `partition-seed-${stream}`;
    let hash: string | null = null;
    for (let version = 1; version <= SEEDED_VERSIONS; version++) {
      const data = { stream, version };
      hash = chainHash(hash, { streamId, streamVersion: version, type: 'PartitionSeedNoted', data, metadata });
      rows.streamId.push(streamId);
      rows.version.push(version);
      rows.data.push(JSON.stringify(data));
      rows.hash.push(hash);
    }
    heads.streamId.push(streamId);
    heads.version.push(SEEDED_VERSIONS);
    heads.hash.push(hash as string);
  }
  await testApp.dataSource.transaction(async (manager) => {
    await manager.query(
      `INSERT INTO streams (stream_id, version, last_hash) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])`,
      [heads.streamId, heads.version, heads.hash],
    );
    await manager.query(
      `INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
       SELECT s, v, 'PartitionSeedNoted', d, $4::jsonb, h FROM unnest($1::text[], $2::int[], $3::jsonb[], $5::text[])
         AS i(s, v, d, h)`,
      [rows.streamId, rows.version, rows.data, JSON.stringify(metadata), rows.hash],
    );
  });
  return rows.streamId.length;
}

/** What a processor sees: every event in commit order with the ids it dedupes by. */
async function everything(store: PostgresEventStore): Promise<CommittedEvent[]> {
  return store.readAll(START_CHECKPOINT, 1_000_000);
}

const shape = (events: readonly CommittedEvent[]) =>
  events.map((event) => ({
    eventId: event.eventId,
    commitPosition: event.commitPosition,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    hash: event.hash,
  }));

/** The read models a rebuild writes, as rows in a stable order, to compare before and after. */
async function readModels(testApp: TestApp): Promise<unknown> {
  return {
    payments: await testApp.dataSource.query('SELECT * FROM payments ORDER BY payment_id'),
    entries: await testApp.dataSource.query(
      'SELECT account, amount_minor, balance_after_minor, payment_id, global_position FROM ledger_entries ORDER BY global_position, posting_index, account',
    ),
  };
}

describe('kupa events partition: the events table partitioned while appends go on (ADR 0114)', () => {
  let testApp: TestApp;
  let store: PostgresEventStore;
  let admin: string;
  let dana: ActiveUser;
  let omer: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    store = testApp.app.get(PostgresEventStore);
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp);
    omer = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('reads, verifies and rebuilds the same history before and after, and appends on across partitions', async () => {
    // A few hundred events through the real append path, then the bulk in SQL.
    await manualPayment(testApp, admin, dana.userUuid, 500, 'Opening deposit');
    for (let n = 1; n <= 50; n++) {
      await transfer(testApp, dana.accessToken, omer.email, 1 + (n % 7));
      if (n % 5 === 0) await manualPayment(testApp, admin, omer.userUuid, 2, `Top-up ${n}`);
    }
    const seeded = await seedInSql(testApp);
    // The SQL seed wrote events only; their read models (the audit log's rows) come from a rebuild, as after a restore.
    const rebuiltBefore = JSON.parse((await kupa(testApp, 'projections', 'rebuild', '--json')).output);
    const before = await everything(store);
    expect(before.length).toBeGreaterThan(seeded + 200);
    const streams = [`wallet-${dana.userUuid}`, `wallet-${omer.userUuid}`, 'partition-seed-7'];
    const streamsBefore = await Promise.all(streams.map((streamId) => store.readStream(streamId)));
    const verifiedBefore = JSON.parse((await kupa(testApp, 'ledger', 'verify', '--json')).output);
    expect(verifiedBefore).toMatchObject({ ok: true, differenceCount: 0 });
    const modelsBefore = await readModels(testApp);

    // Appends go on the whole time, and one lands between every two steps.
    let appending = true;
    const appended: Payment[] = [];
    const appender = (async () => {
      while (appending) appended.push(await transfer(testApp, omer.accessToken, dana.email, 0.25));
    })();
    const phases: EventPartitionPhase[] = [];
    const report = await partitionEvents(testApp.dataSource, {
      partitionSize: PARTITION_SIZE,
      onPhase: async (phase) => {
        phases.push(phase);
        appended.push(await transfer(testApp, dana.accessToken, omer.email, 0.5));
      },
    });
    appending = false;
    await appender;
    expect(phases).toEqual(['bound-added', 'bound-validated', 'swapped']);
    expect(report.partitionedNow).toBe(true);
    expect(await eventsArePartitioned(testApp.dataSource)).toBe(true);
    expect(report.partitions[0]).toEqual({ name: 'events_p0', from: null, to: report.boundary });
    expect(report.partitions.length).toBeGreaterThanOrEqual(3);

    // Positions further on land in the partitions made ahead, and the recurring job's step makes more.
    await testApp.dataSource.query(`SELECT setval('events_global_position_seq', $1::bigint)`, [
      (BigInt(report.boundary as string) + BigInt(PARTITION_SIZE) - 3n).toString(),
    ]);
    for (let n = 0; n < 3; n++) appended.push(await transfer(testApp, omer.accessToken, dana.email, 0.1));
    appended.push(await manualPayment(testApp, admin, dana.userUuid, 1, 'After the swap'));
    const made = await makePartitionsAhead(testApp.dataSource);
    expect(made.length).toBeGreaterThan(0);
    const holding: Array<{ partition: string; events: number }> = await testApp.dataSource.query(
      `SELECT tableoid::regclass::text AS partition, count(*)::int AS events FROM events GROUP BY 1 ORDER BY 1`,
    );
    expect(holding.filter((row) => row.events > 0).length).toBeGreaterThanOrEqual(2);
    expect((await eventPartitions(testApp.dataSource)).map((partition) => partition.name)).toEqual(
      expect.arrayContaining(['events_p0', ...made]),
    );

    // Every event read before reads the same, first and in the same commit order; the new ones follow.
    const after = await everything(store);
    expect(shape(after.slice(0, before.length))).toEqual(shape(before));
    expect(after.length).toBeGreaterThan(before.length + appended.length);
    // Commit order; the events of one commit share its position (ADR 0128), in the order of their global positions,
    // a transfer's four across the partition boundary the sequence was moved to as well.
    const inOrder = after.every((event, index) => {
      if (index === 0) return true;
      const previous = after[index - 1];
      const [commit, previousCommit] = [BigInt(event.commitPosition), BigInt(previous.commitPosition)];
      return (
        commit > previousCommit ||
        (commit === previousCommit && BigInt(event.globalPosition) > BigInt(previous.globalPosition))
      );
    });
    expect(inOrder).toBe(true);
    const streamsAfter = await Promise.all(streams.map((streamId) => store.readStream(streamId)));
    for (const [index, events] of streamsAfter.entries()) {
      expect(events.slice(0, streamsBefore[index].length)).toEqual(streamsBefore[index]);
      expect(events.map((event) => event.streamVersion)).toEqual(events.map((_event, at) => at + 1));
    }

    // Verify passes on the partitioned store, counting the appends made meanwhile; a rebuild writes what the inline
    // projections wrote.
    const verifiedAfter = JSON.parse((await kupa(testApp, 'ledger', 'verify', '--json')).output);
    expect(verifiedAfter).toMatchObject({ ok: true, differenceCount: 0 });
    expect(verifiedAfter.counts.transactions).toBe(verifiedBefore.counts.transactions + appended.length);
    const modelsInline = await readModels(testApp);
    const rebuilt = JSON.parse((await kupa(testApp, 'projections', 'rebuild', '--json')).output);
    expect(rebuilt.eventsReplayed).toBeGreaterThanOrEqual(after.length);
    expect(rebuilt.projections).toEqual(rebuiltBefore.projections);
    expect(await readModels(testApp)).toEqual(modelsInline);
    expect(modelsInline).toMatchObject({
      payments: expect.arrayContaining((modelsBefore as { payments: unknown[] }).payments),
    });

    // Run again, the command only makes partitions ahead.
    const again = await kupa(testApp, 'events', 'partition', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.output)).toMatchObject({ partitionedNow: false, boundary: null });
  });

  it('refuses a stream version twice within a partition; verify names one written twice across partitions', async () => {
    const streamId = `wallet-${dana.userUuid}`;
    const [head]: Array<{ version: number }> = await testApp.dataSource.query(
      'SELECT version FROM streams WHERE stream_id = $1',
      [streamId],
    );
    await expect(
      testApp.dataSource.query(
        `INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
         VALUES ($1, $2, 'Duplicate', '{}', '{}', 'x')`,
        [streamId, head.version],
      ),
    ).rejects.toMatchObject({ constraint: expect.stringMatching(/^events_p\d+_stream_version_unique$/) });

    // In another partition no index refuses it (ADR 0114): the stream's lock keeps the store from writing it, and
    // the hash-chain walk of verify names it.
    const [newest] = (await eventPartitions(testApp.dataSource)).slice(-1);
    const [{ position }]: Array<{ position: string }> = await testApp.dataSource.query(
      `INSERT INTO events (global_position, stream_id, stream_version, type, data, metadata, hash)
       VALUES ($1, 'partition-seed-3', 5, 'PartitionSeedNoted', '{}', '{}', 'x') RETURNING global_position::text AS position`,
      [newest.from],
    );
    // Which copy of version 5 the walk meets first is either: the other is a gap or a broken link.
    const { ok, problems } = await verifyStreamHashes(testApp.dataSource);
    expect(ok).toBe(false);
    expect(problems.length).toBeGreaterThan(0);
    for (const found of problems) expect(found).toMatchObject({ streamId: 'partition-seed-3' });
    expect(problems.map((found) => found.kind)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(version-gap|hash-mismatch)$/)]),
    );
    await testApp.dataSource.query('DELETE FROM events WHERE global_position = $1', [position]);
    await testApp.dataSource.query('DELETE FROM event_commits WHERE first_position = $1', [position]);
  });

  it('backs the partitioned store up as one events table, not as its partitions', async () => {
    // Restore creates the schema by the migrations, where events is the plain table: a file naming the partitions
    // could not be restored there, one naming events can (COPY into events, plain or partitioned).
    const workDir = mkdtempSync(join(tmpdir(), 'kupa-partition-'));
    try {
      const file = join(workDir, 'partitioned.kupa.gz');
      const backedUp = await kupa(testApp, 'backup', '--out', file, '--json');
      expect(backedUp.code).toBe(0);
      const [{ events }]: Array<{ events: number }> = await testApp.dataSource.query(
        'SELECT count(*)::int AS events FROM events',
      );
      expect(JSON.parse(backedUp.output)).toMatchObject({ events });
      const header = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8').split('\n')[0]) as BackupHeader;
      expect(header.tables.find((table) => table.name === 'events')?.rows).toBe(events);
      expect(header.tables.filter((table) => table.name.startsWith('events_p'))).toEqual([]);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
