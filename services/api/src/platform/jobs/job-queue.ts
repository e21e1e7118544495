import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../clock/clock';
import { type Backoff, backoffDelayMs } from './backoff';

/**
 * A kind of queued job and the table that holds its rows (docs/adr/0067-one-substrate-for-background-work.md). The
 * table is ours, made by a migration (ADR 0016); it has an `id`, `attempts`, `next_attempt_at` and `last_error`
 * column, and the kind says which rows still wait and in which order they are taken.
 */
export interface JobQueueKind {
  /** Names the queue in errors. */
  readonly name: string;
  readonly table: string;
  readonly idType: 'bigint' | 'uuid';
  /** The columns a claim reads, as SQL over the alias `job` (the id as text: `job.id::text AS id`). */
  readonly columns: string;
  /** SQL over `job`: the rows not finished (`job.sent_at IS NULL`). */
  readonly pending: string;
  /** More SQL over `job` a row must meet to be claimed (a lane's order: no earlier job of its subscription waits). */
  readonly claimable?: string;
  /** The claim's order, SQL over `job`: oldest due first. */
  readonly order: string;
  /**
   * How long a claimed row belongs to its claimer: longer than any run takes. A claimer that dies (kill -9) leaves the
   * row due again after it, so the job runs later rather than never.
   */
  readonly leaseMs: number;
  /** The wait before each next attempt after failures: the one formula, capped doubling. */
  readonly backoff: Backoff;
  /** Attempts before a kind gives up (it decides what giving up means); null: never, a job is only ever late. */
  readonly maxAttempts: number | null;
}

export interface ClaimedRow {
  id: string;
  attempts: number;
}

/** What a pass does with each job it claims (`JobQueue.runPass`). */
export interface PassJob<Row extends ClaimedRow, T> {
  /** Runs in the claim's transaction (`JobQueue.claim`); its result is handed to `run`. Unset: nothing. */
  inClaim?: (row: Row, manager: EntityManager, now: Date) => Promise<T>;
  /** Whether the claim counts an attempt (`JobQueue.claim`). Unset: always. */
  countsAttempt?: (row: Row) => boolean;
  /** Runs the claimed job once its claim committed; whether it finished the job (else it waits to be retried). */
  run: (row: Row, prepared: T) => Promise<boolean>;
}

/**
 * The leased rows of one job kind: a claim takes the first due row under `FOR UPDATE SKIP LOCKED` (claimers in
 * several processes share the queue and never take one row together) and leases it in the same short transaction
 * (its next attempt moves past the lease, an attempt is counted), so no other claimer takes it while it runs and a
 * claimer that died gives it back when the lease lapses. A failed run waits the kind's backoff.
 */
export class JobQueue<Row extends ClaimedRow> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    readonly kind: JobQueueKind,
  ) {}

  /**
   * Claims and leases the first due row not in `excludedIds`, then runs `inClaim` in the claim's transaction (a mail
   * renders there, so that what it sends is committed before it is sent). `countsAttempt` false leases the row
   * without counting an attempt (a job whose service already answered only reports). Null when nothing is due.
   */
  async claim<T>(
    excludedIds: readonly string[],
    inClaim: (row: Row, manager: EntityManager, now: Date) => Promise<T>,
    countsAttempt: (row: Row) => boolean = () => true,
  ): Promise<{ row: Row; result: T } | null> {
    const now = this.clock.now();
    const { table, idType, columns, pending, claimable, order, leaseMs } = this.kind;
    return this.dataSource.transaction(async (manager) => {
      const rows: Row[] = await manager.query(
        `SELECT ${columns} FROM ${table} job
          WHERE ${pending} AND job.next_attempt_at <= $1 AND NOT (job.id = ANY($2::${idType}[]))
            ${claimable ? `AND ${claimable}` : ''}
          ORDER BY ${order} LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [now, excludedIds],
      );
      const row = rows[0];
      if (!row) return null;
      const counted = countsAttempt(row) ? 1 : 0;
      await manager.query(
        `UPDATE ${table} SET attempts = attempts + $3, next_attempt_at = $2 WHERE id = $1::${idType}`,
        [row.id, new Date(now.getTime() + leaseMs), counted],
      );
      row.attempts += counted;
      return { row, result: await inClaim(row, manager, now) };
    });
  }

  /** Whether a job that failed its `attempts`-th attempt has had its last. */
  exhausted(attempts: number): boolean {
    return this.kind.maxAttempts !== null && attempts >= this.kind.maxAttempts;
  }

  /** Sets a failed job's next attempt after the backoff for `failures` failures, and why it failed. */
  async retryLater(
    id: string,
    failures: number,
    reason: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const next = new Date(this.clock.now().getTime() + backoffDelayMs(this.kind.backoff, failures));
    await manager.query(
      `UPDATE ${this.kind.table} SET next_attempt_at = $2, last_error = $3 WHERE id = $1::${this.kind.idType}`,
      [id, next, reason.slice(0, 500)],
    );
  }

  /**
   * One pass over what is due now, in `lanes` lanes that each claim a job (with `job.inClaim` in the claim's
   * transaction) and run it (`job.run`), one after another, until nothing is left to claim; returns how many runs said
   * they finished their job. A job tried in this pass is not tried again in it, however short its wait, by any lane. A
   * lane that throws ends the pass: the other lanes finish the job in hand and take no other, and the pass rejects
   * with the first error once every lane has stopped (else the loop would start its next pass beside lanes still
   * running).
   */
  async runPass<T = undefined>(lanes: number, stopped: () => boolean, job: PassJob<Row, T>): Promise<number> {
    if (!Number.isInteger(lanes) || lanes < 1)
      throw new Error(`The lane count of ${this.kind.name} must be a whole number of at least 1, got ${lanes}`);
    const inClaim = job.inClaim ?? (async () => undefined as T);
    const tried: string[] = [];
    let failure: { error: unknown } | null = null;
    let finished = 0;
    const lane = async (): Promise<void> => {
      try {
        while (!stopped() && failure === null) {
          const claimed = await this.claim(tried, inClaim, job.countsAttempt);
          if (claimed === null) break;
          tried.push(claimed.row.id);
          if (await job.run(claimed.row, claimed.result)) finished += 1;
        }
      } catch (error) {
        failure ??= { error };
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    if (failure !== null) throw (failure as { error: unknown }).error;
    return finished;
  }
}
