import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/**
 * Provisioning created the account: the first period starts (at the purchase or now, ADR 0136). Run by the
 * provisioning outcomes, no route.
 */
export class ActivateSubscriptionCommand extends Command<void> {
  constructor(
    readonly subscriptionId: string,
    readonly context: RequestContext,
    /** The event that caused it (the provisioning job's request). */
    readonly causationId: string | null = null,
    /** The expiry the account was created with (the `CREATE_ACCOUNT` job's); null when not known. */
    readonly accountExpiresAt: Date | null = null,
  ) {
    super();
  }
}
