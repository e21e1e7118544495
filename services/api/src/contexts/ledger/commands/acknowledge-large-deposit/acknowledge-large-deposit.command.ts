import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/** A staff member marks a large deposit in the dashboard's queue as seen. */
export class AcknowledgeLargeDepositCommand extends Command<void> {
  constructor(
    readonly paymentId: number,
    readonly context: RequestContext,
  ) {
    super();
  }
}
