import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/** Provisioning created the account: the first period starts now. Run by the provisioning outcomes, no route. */
export class ActivateSubscriptionCommand extends Command<void> {
  constructor(
    readonly subscriptionId: string,
    readonly context: RequestContext,
    /** The event that caused it (the provisioning job's request). */
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
