import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../../../../platform/clock';
import { JobQueue, type JobQueueKind, PollingLoop } from '../../../../platform/jobs';
import type { ProvisioningCallOutcome } from '../../../../platform/observability';
import type { BackgroundLoop } from '../../../../platform/workers';
import { type ProvisioningJob, sendsStoredPassword } from './provisioning-jobs';
import type { ProvisioningFailure, ProvisioningOutcomes } from './provisioning-outcomes.port';
import { ProvisioningError, type ProvisioningProvider } from './provisioning-provider.port';
import type { ProvisioningSecrets } from './provisioning-secrets.port';

export interface ProvisioningJobRunnerOptions {
  pollIntervalMs: number;
  /** Attempts at the service before transient failures count as a permanent one. */
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /**
   * How long a claimed job belongs to the runner calling the service. A runner that dies mid-call leaves the job due
   * again after this; it must be longer than a call's timeout.
   */
  leaseMs: number;
  /**
   * How many jobs this runner has in hand at once (1 when not given). Each lane claims and runs jobs one after
   * another; the lanes share the pass, and the claim keeps a subscription's jobs in order whatever the count.
   */
  concurrency?: number;
  onError?: (error: unknown) => void;
  /** Told how each call to the service ended (the metrics count them by operation and outcome). */
  onCall?: (operation: ProvisioningJob['operation'], outcome: ProvisioningCallOutcome) => void;
}

/** The service's final word on a job; once recorded, the job's next run only reports it. */
type Outcome = { result: 'SUCCEEDED' } | { result: 'FAILED'; failure: ProvisioningFailure };

interface JobRow {
  id: string;
  subscription_id: string;
  operation: ProvisioningJob['operation'];
  parameters: Record<string, string>;
  causation_event_id: string;
  attempts: number;
  outcome: Outcome | null;
}

/**
 * The jobs as a queue of platform/jobs: pending rows, oldest due first, and of a subscription only the earliest
 * pending job (its lane, ADR 0052: an account is created before it is renamed).
 */
function provisioningQueue(options: ProvisioningJobRunnerOptions): JobQueueKind {
  return {
    name: 'provisioning-jobs',
    table: 'provisioning_jobs',
    idType: 'uuid',
    columns:
      'job.id, job.subscription_id, job.operation, job.parameters, job.causation_event_id, job.attempts, job.outcome',
    pending: `job.status = 'PENDING'`,
    claimable: `NOT EXISTS (
      SELECT 1 FROM provisioning_jobs earlier
       WHERE earlier.subscription_id = job.subscription_id AND earlier.status = 'PENDING' AND earlier.seq < job.seq)`,
    order: 'job.next_attempt_at, job.seq',
    leaseMs: options.leaseMs,
    backoff: { baseMs: options.retryBaseMs, maxMs: options.retryMaxMs },
    maxAttempts: options.maxAttempts,
  };
}

const INTEGRATION_FAILURE = 'error.streaming.integration.failure' as const;

/**
 * Runs due provisioning jobs through the `ProvisioningProvider` and reports how they ended. A job is claimed through
 * its job queue (platform/jobs: `FOR UPDATE SKIP LOCKED`, leased in a short transaction), so runners in several processes share the queue and
 * never hold one job together; a subscription's jobs run one at a time in the order they were asked for (an account
 * is created before it is renamed). Transient failures wait, doubling from `retryBaseMs` up to `retryMaxMs`, for at
 * most `maxAttempts` attempts; a permanent failure, a taken login or the last failed attempt is reported once as
 * `failedPermanently`.
 */
export class ProvisioningJobRunner implements BackgroundLoop {
  readonly name = 'provisioning-jobs';
  private readonly loop: PollingLoop;
  private readonly queue: JobQueue<JobRow>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: ProvisioningProvider,
    private readonly secrets: ProvisioningSecrets,
    private readonly outcomes: ProvisioningOutcomes,
    private readonly clock: Clock,
    private readonly options: ProvisioningJobRunnerOptions,
  ) {
    this.loop = new PollingLoop((stopped) => this.runDue(stopped), options);
    this.queue = new JobQueue(dataSource, clock, provisioningQueue(options));
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due work now rather than after the poll interval: work was committed in this process. */
  wake(): void {
    this.loop.wake();
  }

  /** Lets the job in hand finish, then stops. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Runs every job due now, in `concurrency` lanes that each take one job after another; returns how many finished
   * (DONE or FAILED). For the loop and tests. A lane stops when it finds nothing it may claim; the pass ends when the
   * last lane stops, so a job that becomes claimable late (the next of a subscription whose job another lane just
   * finished) is taken by a lane still running or by the next pass.
   *
   * A lane that throws ends the pass: the other lanes finish the job in hand and take no other, and the pass rejects
   * with the first error only once every lane has stopped. Otherwise the loop would start its next pass beside lanes
   * still running, and `stop()` would return while they still used the database.
   */
  async runDue(stopped: () => boolean = () => false): Promise<number> {
    return this.queue.runPass(this.options.concurrency ?? 1, stopped, {
      inClaim: async (row) => jobOf(row),
      // The lease counts an attempt at the service only when it is to be called: a job whose service already
      // answered for good only reports.
      countsAttempt: (row) => row.outcome === null,
      run: (row, job) => this.run(row, job),
    });
  }

  /**
   * Calls the service unless it has already answered for good, then reports; returns whether the job finished. The
   * outcome is written with the DONE or FAILED mark, after the report (ADR 0135): on its own only before a report's
   * retry, so that the retry does not call again, and before the report of a password job's failure. A crash between
   * the call and the mark calls the service again, which its API allows: every call is safe to repeat
   * (docs/provisioning-api.md); a password job's password is forgotten only with its mark, so the repeat finds it.
   */
  private async run(row: JobRow, job: ProvisioningJob): Promise<boolean> {
    let outcome = row.outcome;
    let recorded = outcome !== null;
    if (outcome === null) {
      try {
        outcome = await this.call(job);
      } catch (error) {
        if (!(error instanceof ProvisioningError) || error.kind !== 'TRANSIENT') throw error;
        if (!this.queue.exhausted(job.attempts)) {
          await this.retryLater(job, error.message);
          return false;
        }
        outcome = {
          result: 'FAILED',
          failure: {
            kind: 'RETRIES_EXHAUSTED',
            code: INTEGRATION_FAILURE,
            detail: `${job.attempts} attempts failed, the last: ${error.message}`,
          },
        };
      }
      // A password job's failure is written before its report: called again, the service might create the account
      // of a subscription already refunded (ADR 0135, amended).
      if (outcome.result === 'FAILED' && sendsStoredPassword(job)) {
        await this.record(job, outcome);
        recorded = true;
      }
    }
    try {
      if (outcome.result === 'SUCCEEDED') await this.outcomes.succeeded(job);
      else await this.outcomes.failedPermanently(job, outcome.failure);
    } catch (error) {
      this.options.onError?.(error);
      if (!recorded) await this.record(job, outcome);
      await this.retryLater(job, `Reporting the outcome failed: ${describe(error)}`);
      return false;
    }
    await this.finish(job, outcome, recorded);
    return true;
  }

  /**
   * The DONE or FAILED mark, with the outcome unless it was written already; for a password job, its password is
   * forgotten in the same transaction, so that until the mark commits a repeated run still finds it.
   */
  private async finish(job: ProvisioningJob, outcome: Outcome, recorded: boolean): Promise<void> {
    const status = outcome.result === 'SUCCEEDED' ? 'DONE' : 'FAILED';
    const mark = (manager: EntityManager) =>
      recorded
        ? manager.query(
            `UPDATE provisioning_jobs SET status = $2, finished_at = $3 WHERE id = $1 AND status = 'PENDING'`,
            [job.id, status, this.clock.now()],
          )
        : manager.query(
            `UPDATE provisioning_jobs SET status = $2, finished_at = $3, outcome = $4::jsonb, last_error = $5
              WHERE id = $1 AND status = 'PENDING'`,
            [job.id, status, this.clock.now(), JSON.stringify(outcome), lastErrorOf(outcome)],
          );
    if (!sendsStoredPassword(job)) {
      await mark(this.dataSource.manager);
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      await mark(manager);
      await this.secrets.forget(job, outcome.result, manager);
    });
  }

  /** Writes the service's final word on its own, so that the job's next run only reports it. */
  private async record(job: ProvisioningJob, outcome: Outcome): Promise<void> {
    await this.dataSource.query(`UPDATE provisioning_jobs SET outcome = $2::jsonb, last_error = $3 WHERE id = $1`, [
      job.id,
      JSON.stringify(outcome),
      lastErrorOf(outcome),
    ]);
  }

  /** One call to the service; a permanent refusal becomes a FAILED outcome, a transient one is thrown. */
  private async call(job: ProvisioningJob): Promise<Outcome> {
    try {
      await this.perform(job);
      this.options.onCall?.(job.operation, 'succeeded');
      return { result: 'SUCCEEDED' };
    } catch (error) {
      this.options.onCall?.(job.operation, callOutcomeOf(error));
      if (error instanceof MissingSecretError)
        return {
          result: 'FAILED',
          failure: { kind: 'SECRET_MISSING', code: INTEGRATION_FAILURE, detail: error.message },
        };
      if (!(error instanceof ProvisioningError) || error.kind === 'TRANSIENT') throw error;
      if (error.kind === 'LOGIN_TAKEN')
        return {
          result: 'FAILED',
          failure: { kind: 'LOGIN_TAKEN', code: 'error.login.already.exists', detail: error.message },
        };
      return { result: 'FAILED', failure: { kind: 'REJECTED', code: INTEGRATION_FAILURE, detail: error.message } };
    }
  }

  private async perform(job: ProvisioningJob): Promise<void> {
    switch (job.operation) {
      case 'CREATE_ACCOUNT': {
        const password = await this.passwordOf(job);
        await this.provider.createAccount({
          login: job.parameters.login,
          password,
          expiresAt: new Date(job.parameters.expiresAt),
        });
        return;
      }
      case 'EXTEND_ACCOUNT':
        await this.provider.extendAccount({
          login: job.parameters.login,
          expiresAt: new Date(job.parameters.expiresAt),
        });
        return;
      case 'CHANGE_LOGIN':
        await this.provider.changeLogin({ login: job.parameters.login, newLogin: job.parameters.newLogin });
        return;
      case 'CHANGE_PASSWORD':
        await this.provider.changePassword({ login: job.parameters.login, password: await this.passwordOf(job) });
        return;
      case 'DISABLE_ACCOUNT':
        await this.provider.disableAccount({ login: job.parameters.login });
        return;
    }
  }

  private async passwordOf(job: ProvisioningJob): Promise<string> {
    const password = await this.secrets.passwordFor(job);
    if (password === null) throw new MissingSecretError(job);
    return password;
  }

  private async retryLater(job: ProvisioningJob, reason: string): Promise<void> {
    await this.queue.retryLater(job.id, job.attempts, reason);
  }
}

function jobOf(row: JobRow): ProvisioningJob {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    operation: row.operation,
    parameters: row.parameters,
    causationEventId: row.causation_event_id,
    attempts: row.attempts,
  } as ProvisioningJob;
}

/** The job's password is gone: reported as a permanent failure, never sent as something else. */
class MissingSecretError extends ProvisioningError {
  readonly kind = 'PERMANENT';
  constructor(job: ProvisioningJob) {
    super(`No password is waiting for ${job.operation} of subscription ${job.subscriptionId}`);
    this.name = 'MissingSecretError';
  }
}

function callOutcomeOf(error: unknown): ProvisioningCallOutcome {
  if (error instanceof MissingSecretError) return 'secret_missing';
  if (!(error instanceof ProvisioningError)) return 'error';
  if (error.kind === 'TRANSIENT') return 'transient_failure';
  return error.kind === 'LOGIN_TAKEN' ? 'login_taken' : 'rejected';
}

function lastErrorOf(outcome: Outcome): string | null {
  return outcome.result === 'FAILED' ? outcome.failure.detail : null;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
