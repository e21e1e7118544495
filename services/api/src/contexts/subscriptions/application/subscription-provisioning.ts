import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { systemContext } from '../../../platform/auth';
import type { PasswordJob, ProvisioningJob } from '../infrastructure/provisioning/provisioning-jobs';
import {
  type ProvisioningFailure,
  ProvisioningOutcomes,
} from '../infrastructure/provisioning/provisioning-outcomes.port';
import { ProvisioningSecrets } from '../infrastructure/provisioning/provisioning-secrets.port';
import { ActivateSubscriptionCommand } from '../commands/activate-subscription/activate-subscription.command';
import { FailProvisioningCommand } from '../commands/fail-provisioning/fail-provisioning.command';
import { SubscriptionSecrets } from '../infrastructure/subscription-secrets';

/**
 * What the subscriptions context does with the streaming service's answers (docs/adr/0025-provisioning.md): a
 * created account activates its subscription (with the expiry it was created with: ADR 0136), a refused one cancels it and refunds its
 * payment in one append. Both commands do nothing when repeated, as the runner may report a job twice. The stored
 * passwords are forgotten by `SubscriptionProvisioningSecrets.forget`, with the job's DONE or FAILED mark, not here:
 * a run repeated after this report (a crash before the mark) must still find the password it sent (ADR 0135).
 */
@Injectable()
export class SubscriptionProvisioningOutcomes extends ProvisioningOutcomes {
  private readonly logger = new Logger('Provisioning');

  constructor(private readonly commands: CommandBus) {
    super();
  }

  async succeeded(job: ProvisioningJob): Promise<void> {
    switch (job.operation) {
      case 'CREATE_ACCOUNT':
        await this.commands.execute(
          new ActivateSubscriptionCommand(
            job.subscriptionId,
            systemContext(),
            job.causationEventId,
            new Date(job.parameters.expiresAt),
          ),
        );
        return;
      default:
        return;
    }
  }

  async failedPermanently(job: ProvisioningJob, failure: ProvisioningFailure): Promise<void> {
    if (job.operation === 'CREATE_ACCOUNT') {
      await this.commands.execute(
        new FailProvisioningCommand(job.subscriptionId, failure.kind, systemContext(), job.causationEventId),
      );
      return;
    }
    // The subscription itself stands (it was paid and the account exists); the service is out of step on this one
    // change, which staff see in the job's row and can repeat from the console by changing it again.
    this.logger.warn(
      `Provisioning ${job.operation} for subscription ${job.subscriptionId} failed for good: ${failure.kind} ${failure.detail}`,
    );
  }
}

/** The password a job sends: the newest one stored for the subscription. */
@Injectable()
export class SubscriptionProvisioningSecrets extends ProvisioningSecrets {
  constructor(private readonly secrets: SubscriptionSecrets) {
    super();
  }

  async passwordFor(job: ProvisioningJob): Promise<string | null> {
    return (await this.secrets.newest(job.subscriptionId))?.password ?? null;
  }

  /**
   * Once the service holds a password, the stored copies up to the job's version go (a newer one waits for its own
   * job); an account never created needs none of them.
   */
  async forget(job: PasswordJob, result: 'SUCCEEDED' | 'FAILED', manager: EntityManager): Promise<void> {
    if (result === 'SUCCEEDED')
      await this.secrets.forgetUpTo(job.subscriptionId, job.parameters.secretVersion, manager);
    else if (job.operation === 'CREATE_ACCOUNT') await this.secrets.forgetAll(job.subscriptionId, manager);
  }
}
