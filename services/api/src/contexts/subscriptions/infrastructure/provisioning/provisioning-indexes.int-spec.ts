import type { DataSource } from 'typeorm';
import { createMigratedDatabase, type MigratedDatabase } from '../../../../test-support/migrated-database';
import { ProvisioningJobsSeqNotUnique1772500013500 } from './provisioning.migrations';
import { indexNamesOf, planWithoutSeqScans } from '../../../../test-support/query-plans';

/**
 * `provisioning_jobs.seq` orders the queue without a unique index of its own (issue 36, cut 3): the claim and a
 * subscription's lane still read the order from their partial indexes, and `seq` still comes from its sequence.
 */
describe('provisioning_jobs indexes', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createMigratedDatabase();
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  const indexes = () => indexNamesOf(dataSource, 'provisioning_jobs');
  const planOf = (sql: string, parameters: unknown[]) => planWithoutSeqScans(dataSource, sql, parameters);

  it('keeps the key, the once-only cause and the two queue indexes, and no unique index on seq', async () => {
    expect(await indexes()).toEqual([
      'provisioning_jobs_causation_event_id_key',
      'provisioning_jobs_due',
      'provisioning_jobs_pkey',
      'provisioning_jobs_subscription',
    ]);
  });

  it("claims the first due job and checks a subscription's earlier jobs through the queue's indexes", async () => {
    const claim = await planOf(
      `SELECT job.id FROM provisioning_jobs job
        WHERE job.status = 'PENDING' AND job.next_attempt_at <= $1
          AND NOT EXISTS (SELECT 1 FROM provisioning_jobs earlier
                           WHERE earlier.subscription_id = job.subscription_id AND earlier.status = 'PENDING'
                             AND earlier.seq < job.seq)
        ORDER BY job.next_attempt_at, job.seq LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [new Date()],
    );
    expect(claim).toMatch(/Index Scan using provisioning_jobs_due/);
    expect(claim).toMatch(/Index (Only )?Scan using provisioning_jobs_subscription/);
  });

  it('numbers new jobs from the sequence, in order', async () => {
    const rows: Array<{ seq: string }> = await dataSource.query(
      `INSERT INTO provisioning_jobs (id, subscription_id, operation, parameters, causation_event_id, next_attempt_at, created_at)
       SELECT gen_random_uuid(), gen_random_uuid(), 'DISABLE_ACCOUNT', '{}', 'cause-' || n, now(), now()
         FROM generate_series(1, 3) n
       RETURNING seq`,
    );
    const seqs = rows.map((row) => Number(row.seq));
    expect(seqs[1] - seqs[0]).toBe(1);
    expect(seqs[2] - seqs[1]).toBe(1);
  });

  it('puts the unique index back when the migration is reverted', async () => {
    const migration = new ProvisioningJobsSeqNotUnique1772500013500();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await indexes()).toContain('provisioning_jobs_seq_key');
      await migration.up(runner);
      expect(await indexes()).not.toContain('provisioning_jobs_seq_key');
    } finally {
      await runner.release();
    }
  });
});
