import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/**
 * The end date passed: GRACE for one that renews by itself (RENEWAL_GRACE_DAYS, ADR 0081), else EXPIRED, or CANCELED
 * when cancelled; at a grace window's end, EXPIRED; nothing before. Run by the renewal and expiry sweep, no route.
 */
export class EndSubscriptionCommand extends Command<void> {
  constructor(
    readonly subscriptionId: string,
    readonly context: RequestContext,
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
