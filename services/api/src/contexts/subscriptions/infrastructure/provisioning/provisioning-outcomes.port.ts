import type { ErrorCode } from '@kupa/proto';
import type { ProvisioningJob } from './provisioning-jobs';

/** Why a job will never succeed. */
export interface ProvisioningFailure {
  kind: 'LOGIN_TAKEN' | 'REJECTED' | 'RETRIES_EXHAUSTED' | 'SECRET_MISSING';
  /** What to show the client: `error.login.already.exists` for a taken login, else the integration failure. */
  code: ErrorCode;
  /** For staff and logs: the operation and the service's status; no password, no token. */
  detail: string;
}

/**
 * Where the runner reports how each job ended (bound by the subscriptions context to its commands: activate on a
 * created account, refund on a permanent failure). Each job is reported at least once and normally once; a crash
 * between the report and the job's DONE or FAILED mark reports it again (after calling the service again, unless its
 * outcome was written before the report: a password job's failure, ADR 0135), so the bound commands must treat a
 * repeat as done, and must not forget the password a job sent (`ProvisioningSecrets.forget` does, with the mark). A
 * report that throws is retried with the job's backoff; the service is not called again.
 */
export abstract class ProvisioningOutcomes {
  abstract succeeded(job: ProvisioningJob): Promise<void>;
  abstract failedPermanently(job: ProvisioningJob, failure: ProvisioningFailure): Promise<void>;
}
