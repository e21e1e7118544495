import type { ProvisioningJob } from './provisioning-jobs';

/**
 * The password a `CREATE_ACCOUNT` or `CHANGE_PASSWORD` job sends, read when the job runs (bound by the subscriptions
 * context to the table its commands write the pending password into). `null` when there is none any more: the job
 * fails permanently rather than send something else.
 */
export abstract class ProvisioningSecrets {
  abstract passwordFor(job: ProvisioningJob): Promise<string | null>;
}
