/**
 * Claim-and-complete throughput of platform/jobs' `JobQueue` (docs/adr/0067-one-substrate-for-background-work.md):
 * `BENCH_JOBS` no-op jobs (10,000) queued at once, then `BENCH_WORKERS` workers (4), each with a pool of its own as a
 * worker process has, claim (`FOR UPDATE SKIP LOCKED` and the lease, one transaction), run and mark done one job at a
 * time until none is left. Prints one JSON line. On a fresh database of the server named by DATABASE_URL:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx services/api/bench/jobs-queue.bench.ts
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SystemClock } from '../src/platform/clock/clock';
import { JobQueue } from '../src/platform/jobs/job-queue';

const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const DATABASE = 'kupa_jobs_bench';

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;

  const workers = await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const dataSource = new DataSource({ type: 'postgres', url: url.toString(), extra: { max: 2 } });
      return dataSource.initialize();
    }),
  );
  await workers[0].query(`CREATE TABLE bench_jobs (
      id bigserial PRIMARY KEY, attempts int NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL,
      last_error text, done_at timestamptz)`);
  await workers[0].query('CREATE INDEX bench_jobs_due_idx ON bench_jobs (next_attempt_at, id) WHERE done_at IS NULL');
  await workers[0].query('INSERT INTO bench_jobs (next_attempt_at) SELECT now() FROM generate_series(1, $1)', [JOBS]);
  await workers[0].query('ANALYZE bench_jobs');

  const clock = new SystemClock();
  const kind = {
    name: 'bench',
    table: 'bench_jobs',
    idType: 'bigint' as const,
    columns: 'job.id::text AS id, job.attempts',
    pending: 'job.done_at IS NULL',
    order: 'job.next_attempt_at, job.id',
    leaseMs: 60_000,
    backoff: { baseMs: 1_000, maxMs: 60_000 },
    maxAttempts: null,
  };
  const startedAt = process.hrtime.bigint();
  const finished = await Promise.all(
    workers.map((dataSource) => {
      const queue = new JobQueue<{ id: string; attempts: number }>(dataSource, clock, kind);
      return queue.runPass(1, () => false, {
        run: async (row) => {
          await dataSource.query('UPDATE bench_jobs SET done_at = now() WHERE id = $1', [row.id]);
          return true;
        },
      });
    }),
  );
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const done = finished.reduce((sum, count) => sum + count, 0);
  const [{ twice }] = await workers[0].query('SELECT count(*)::int AS twice FROM bench_jobs WHERE attempts > 1');
  console.log(
    JSON.stringify({
      substrate: 'platform/jobs JobQueue',
      node: process.version,
      jobs: JOBS,
      workers: WORKERS,
      done,
      claimedTwice: twice,
      seconds: Number(seconds.toFixed(2)),
      jobsPerSecond: Math.round(done / seconds),
    }),
  );
  await Promise.all(workers.map((dataSource) => dataSource.destroy()));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
