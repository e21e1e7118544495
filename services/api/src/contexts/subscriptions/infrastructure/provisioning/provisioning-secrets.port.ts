import type { EntityManager } from 'typeorm';
import type { PasswordJob, ProvisioningJob } from './provisioning-jobs';

/**
 * The password a `CREATE_ACCOUNT` or `CHANGE_PASSWORD` job sends, read when the job runs (bound by the subscriptions
 * context to the table its commands write the pending password into). `null` when there is none any more: the job
 * fails permanently rather than send something else.
 */
export abstract class ProvisioningSecrets {
  abstract passwordFor(job: ProvisioningJob): Promise<string | null>;

  /**
   * Forgets what the job sent once it has ended (`SUCCEEDED`: the service holds the password; `FAILED`: it never
   * will), in `manager`'s transaction, the one that marks the job DONE or FAILED (ADR 0135, amended): until that mark
   * commits, a repeated run still finds the password it sent.
   */
  abstract forget(job: PasswordJob, result: 'SUCCEEDED' | 'FAILED', manager: EntityManager): Promise<void>;
}
