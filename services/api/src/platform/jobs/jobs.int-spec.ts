import type { DataSource } from 'typeorm';
import { ManualClock, SystemClock } from '../clock/clock';
import { eventually, useEventStore } from '../event-store/event-store.fixtures';
import { JobQueue, type JobQueueKind, type PassJob } from './job-queue';
import { Schedules, type Sweep, type SweepPass } from './schedules';

/** The substrate of background work on PostgreSQL (docs/adr/0067-one-substrate-for-background-work.md). */
describe('Jobs on PostgreSQL', () => {
  const env = useEventStore();
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource } = env);
    await dataSource.query(
      `CREATE TABLE test_jobs (id bigserial PRIMARY KEY, queue text NOT NULL, attempts int NOT NULL DEFAULT 0,
         next_attempt_at timestamptz NOT NULL, last_error text, runs int NOT NULL DEFAULT 0, done boolean NOT NULL DEFAULT false)`,
    );
    await dataSource.query(
      'CREATE TABLE sweep_items (id serial PRIMARY KEY, sweep text NOT NULL, due_at timestamptz NOT NULL, settled int NOT NULL DEFAULT 0)',
    );
  });

  describe('a queue of leased rows', () => {
    const start = new Date('2026-03-01T00:00:00Z');

    function kind(queue: string): JobQueueKind {
      return {
        name: queue,
        table: 'test_jobs',
        idType: 'bigint',
        columns: 'job.id::text AS id, job.attempts',
        pending: `NOT job.done AND job.queue = '${queue}'`,
        order: 'job.next_attempt_at, job.id',
        leaseMs: 60_000,
        backoff: { baseMs: 1_000, maxMs: 4_000 },
        maxAttempts: 5,
      };
    }

    async function addJobs(queue: string, count: number): Promise<void> {
      await dataSource.query(
        'INSERT INTO test_jobs (queue, next_attempt_at) SELECT $1, $2 FROM generate_series(1, $3)',
        [queue, start, count],
      );
    }

    async function jobs(queue: string): Promise<{ attempts: number; next_attempt_at: Date; runs: number }[]> {
      return dataSource.query('SELECT attempts, next_attempt_at, runs FROM test_jobs WHERE queue = $1 ORDER BY id', [
        queue,
      ]);
    }

    /** A run: counts itself on the row (a job run twice shows as 2), then marks it done. */
    const runner: PassJob<{ id: string; attempts: number }, undefined> = {
      run: async (row) => {
        await dataSource.query('UPDATE test_jobs SET runs = runs + 1, done = true WHERE id = $1', [row.id]);
        return true;
      },
    };

    it('gives each job to one claimer however many claim at once', async () => {
      await addJobs('shared', 40);
      const clock = new ManualClock(start);
      const one = new JobQueue(dataSource, clock, kind('shared'));
      const two = new JobQueue(dataSource, clock, kind('shared'));
      const finished = await Promise.all([one.runPass(4, () => false, runner), two.runPass(4, () => false, runner)]);
      expect(finished[0] + finished[1]).toBe(40);
      expect((await jobs('shared')).map((job) => job.runs)).toEqual(Array.from({ length: 40 }, () => 1));
    });

    it('keeps a claimed job from a second claimer until its lease lapses, then gives it again', async () => {
      await addJobs('lapse', 1);
      const clock = new ManualClock(start);
      const queue = new JobQueue<{ id: string; attempts: number }>(dataSource, clock, kind('lapse'));
      // The first claimer takes the job and dies (kill -9) before it finishes: nothing marks it done.
      const first = await queue.claim([], async () => undefined);
      expect(first?.row.attempts).toBe(1);
      expect(await queue.claim([], async () => undefined)).toBeNull();
      clock.advanceMs(59_999);
      expect(await queue.claim([], async () => undefined)).toBeNull();
      clock.advanceMs(1);
      const again = await queue.claim([], async () => undefined);
      expect(again?.row.id).toBe(first?.row.id);
      expect(again?.row.attempts).toBe(2);
    });

    it('waits the capped doubling after each failure, and counts attempts up to the cap', async () => {
      await addJobs('failing', 1);
      const clock = new ManualClock(start);
      const queue = new JobQueue<{ id: string; attempts: number }>(dataSource, clock, kind('failing'));
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const claimed = await queue.claim([], async () => undefined);
        if (claimed === null) throw new Error(`attempt ${attempt} found nothing due`);
        expect(queue.exhausted(claimed.row.attempts)).toBe(attempt === 5);
        await queue.retryLater(claimed.row.id, claimed.row.attempts, `failure ${attempt}`);
        const [row] = await jobs('failing');
        waits.push(row.next_attempt_at.getTime() - clock.now().getTime());
        expect(await queue.claim([], async () => undefined)).toBeNull();
        clock.set(row.next_attempt_at);
      }
      expect(waits).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
    });
  });

  describe('recurring jobs', () => {
    /**
     * A sweep over a table of due items: each pass settles at most `batch` rows due at the clock's now, one
     * statement per row, so that two runs at once would settle a row twice and the count would show it.
     */
    function dueItemsSweep(name: string, now: () => Date, batch = 3, intervalMs = 20): Sweep & { passes: number } {
      const sweep = {
        name,
        intervalMs,
        passes: 0,
        async sweep(): Promise<SweepPass> {
          sweep.passes += 1;
          const due: { id: number }[] = await dataSource.query(
            'SELECT id FROM sweep_items WHERE sweep = $1 AND due_at <= $2 AND settled = 0 ORDER BY id LIMIT $3',
            [name, now(), batch],
          );
          for (const row of due) {
            await dataSource.query('UPDATE sweep_items SET settled = settled + 1 WHERE id = $1', [row.id]);
          }
          return { acted: due.length, more: due.length === batch };
        },
      };
      return sweep;
    }

    async function settled(name: string): Promise<number[]> {
      const rows: { settled: number }[] = await dataSource.query(
        'SELECT settled FROM sweep_items WHERE sweep = $1 ORDER BY id',
        [name],
      );
      return rows.map((row) => row.settled);
    }

    async function addItems(name: string, dueDates: string[]): Promise<void> {
      await dataSource.query('INSERT INTO sweep_items (sweep, due_at) SELECT $1, unnest($2::timestamptz[])', [
        name,
        dueDates,
      ]);
    }

    it('acts only on what is due at the clock it reads, and catches up on everything due once the clock moves', async () => {
      let now = new Date('2026-03-01T00:00:00Z');
      const schedules = new Schedules(dataSource, new SystemClock(), { pollIntervalMs: 20 });
      schedules.register(dueItemsSweep('catch-up', () => now));
      // Seven items: two due already, five due over the coming days (as after a week of downtime).
      await addItems('catch-up', [
        '2026-02-27T00:00:00Z',
        '2026-02-28T12:00:00Z',
        '2026-03-02T00:00:00Z',
        '2026-03-03T00:00:00Z',
        '2026-03-04T00:00:00Z',
        '2026-03-05T00:00:00Z',
        '2026-03-08T00:00:00Z',
      ]);
      expect(await schedules.sweepNow('catch-up')).toBe(2);
      expect(await settled('catch-up')).toEqual([1, 1, 0, 0, 0, 0, 0]);
      now = new Date('2026-03-06T00:00:00Z');
      // Four are due now: more than one pass's batch of three, so the sweep goes round again by itself.
      expect(await schedules.sweepNow('catch-up')).toBe(4);
      expect(await schedules.sweepNow('catch-up')).toBe(0);
      expect(await settled('catch-up')).toEqual([1, 1, 1, 1, 1, 1, 0]);
    });

    it('runs once per period across two claimers', async () => {
      const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
      const periodMs = 60_000;
      const sweepOne = dueItemsSweep('period', () => clock.now(), 3, periodMs);
      const sweepTwo = dueItemsSweep('period', () => clock.now(), 3, periodMs);
      const one = new Schedules(dataSource, clock, { pollIntervalMs: 20 });
      const two = new Schedules(dataSource, clock, { pollIntervalMs: 20 });
      one.register(sweepOne);
      two.register(sweepTwo);
      const runs = async () => (await Promise.all([one.runIfDue('period'), two.runIfDue('period')])).map((r) => r.ran);

      expect((await runs()).filter(Boolean)).toHaveLength(1);
      clock.advanceMs(periodMs / 2);
      expect((await runs()).filter(Boolean)).toHaveLength(0);
      clock.advanceMs(periodMs / 2);
      expect((await runs()).filter(Boolean)).toHaveLength(1);
      expect((await runs()).filter(Boolean)).toHaveLength(0);
      expect(sweepOne.passes + sweepTwo.passes).toBe(2);
    });

    it('gives a run whose process died to another claimer once its lease lapses, and ignores the late finish', async () => {
      const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
      const leaseMs = 30_000;
      let release: () => void = () => undefined;
      const hung: Sweep = {
        name: 'lapse',
        intervalMs: 60 * 60_000,
        // The first claimer's run hangs, as a process stopped mid-run (kill -9) would for the others.
        sweep: () =>
          new Promise<SweepPass>((resolve) => {
            release = () => resolve({ acted: 1, more: false });
          }),
      };
      const healthy = dueItemsSweep('lapse', () => clock.now(), 3, 60 * 60_000);
      const one = new Schedules(dataSource, clock, { pollIntervalMs: 20, leaseMs });
      const two = new Schedules(dataSource, clock, { pollIntervalMs: 20, leaseMs });
      one.register(hung);
      two.register(healthy);

      const dying = one.runIfDue('lapse');
      await eventually(
        () => dataSource.query("SELECT claim_token FROM job_schedules WHERE name = 'lapse'"),
        (rows: { claim_token: string | null }[]) => rows[0]?.claim_token != null,
        'the first claim',
      );
      expect((await two.runIfDue('lapse')).ran).toBe(false);
      clock.advanceMs(leaseMs);
      const taken = await two.runIfDue('lapse');
      expect(taken.ran).toBe(true);
      expect(healthy.passes).toBe(1);
      // The dead claimer's run ending late moves nothing: the schedule belongs to the run that took it over.
      release();
      await dying;
      const [row]: { next_run_at: Date; claim_token: string | null }[] = await dataSource.query(
        "SELECT next_run_at, claim_token FROM job_schedules WHERE name = 'lapse'",
      );
      expect(row.next_run_at).toEqual(taken.nextRunAt);
      expect(row.claim_token).toBeNull();
    });

    it('retries a failed run after the capped doubling from the poll interval up to the period', async () => {
      const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
      const errors: unknown[] = [];
      const failing: Sweep = {
        name: 'failing',
        intervalMs: 1_000,
        sweep: () => Promise.reject(new Error('read model unreachable')),
      };
      const schedules = new Schedules(dataSource, clock, {
        pollIntervalMs: 200,
        onError: (_name, error) => errors.push(error),
      });
      schedules.register(failing);
      const waits: number[] = [];
      for (let run = 0; run < 4; run += 1) {
        const { ran, nextRunAt } = await schedules.runIfDue('failing');
        expect(ran).toBe(true);
        waits.push(nextRunAt.getTime() - clock.now().getTime());
        clock.set(nextRunAt);
      }
      expect(waits).toEqual([200, 400, 800, 1_000]);
      expect(errors).toHaveLength(4);
      const [row]: { failures: number; last_error: string }[] = await dataSource.query(
        "SELECT failures, last_error FROM job_schedules WHERE name = 'failing'",
      );
      expect(row).toEqual({ failures: 4, last_error: 'read model unreachable' });
    });

    it('runs once across two running processes, and the other carries on when one stops', async () => {
      const errors: unknown[] = [];
      const options = { pollIntervalMs: 20, onError: (_name: string, error: unknown) => errors.push(error) };
      const now = () => new Date('2026-03-01T00:00:00Z');
      const one = new Schedules(dataSource, new SystemClock(), options);
      const two = new Schedules(dataSource, new SystemClock(), options);
      one.register(dueItemsSweep('shared', now, 1));
      two.register(dueItemsSweep('shared', now, 1));
      await addItems(
        'shared',
        Array.from({ length: 20 }, () => '2026-02-01T00:00:00Z'),
      );
      one.start();
      two.start();
      await eventually(
        () => settled('shared'),
        (counts) => counts.every((count) => count > 0),
        'every item settled',
      );
      // Settled once each: no two runs at once.
      expect(new Set(await settled('shared'))).toEqual(new Set([1]));

      await one.stop();
      await addItems('shared', ['2026-02-02T00:00:00Z']);
      await eventually(
        () => settled('shared'),
        (counts) => counts.length === 21 && counts[20] === 1,
        'the item added after one stopped',
      );
      await two.stop();
      expect(errors).toEqual([]);
    });
  });
});
