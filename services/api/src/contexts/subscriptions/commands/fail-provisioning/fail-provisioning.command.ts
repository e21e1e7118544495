import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/** The streaming service refused the account for good. Run by the provisioning outcomes, no route. */
export class FailProvisioningCommand extends Command<void> {
  constructor(
    readonly subscriptionId: string,
    /** The kind of failure the provisioning job reports. */
    readonly reason: string,
    readonly context: RequestContext,
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
