import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/**
 * The end date passed: EXPIRED, or CANCELED when cancelled; nothing before the end date. Run by the renewal and expiry
 * sweep, no route.
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
