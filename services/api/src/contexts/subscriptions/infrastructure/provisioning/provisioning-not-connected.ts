import { ProvisioningOutcomes } from './provisioning-outcomes.port';
import { ProvisioningSecrets } from './provisioning-secrets.port';

/**
 * The ports' bindings until the subscriptions context binds its own: nothing enqueues provisioning jobs before then.
 * Should a job exist anyway, it stays PENDING and is retried rather than reported to nobody.
 */
export class OutcomesNotConnected extends ProvisioningOutcomes {
  succeeded(): Promise<void> {
    return Promise.reject(new Error('No ProvisioningOutcomes binding: the job waits'));
  }
  failedPermanently(): Promise<void> {
    return Promise.reject(new Error('No ProvisioningOutcomes binding: the job waits'));
  }
}

export class SecretsNotConnected extends ProvisioningSecrets {
  passwordFor(): Promise<string | null> {
    return Promise.reject(new Error('No ProvisioningSecrets binding: the job waits'));
  }
  forget(): Promise<void> {
    return Promise.resolve();
  }
}
