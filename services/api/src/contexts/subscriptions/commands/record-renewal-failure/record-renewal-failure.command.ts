import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/**
 * The automatic renewal found the balance short: recorded, with the amount missing and the next attempt. Run by the
 * renewal sweep, no route.
 */
export class RecordRenewalFailureCommand extends Command<void> {
  constructor(
    readonly subscriptionId: string,
    readonly missingMinor: number,
    readonly nextAttemptAt: Date,
    readonly context: RequestContext,
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
