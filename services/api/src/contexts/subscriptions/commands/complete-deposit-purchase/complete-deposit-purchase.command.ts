import { Command } from '@nestjs/cqrs';
import type { DepositPurchaseStatus } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

/**
 * A deposit that pays for a purchase was credited: the purchase or renewal now. Run by the `deposit-purchases`
 * processor, no route. Answers what was recorded (DONE or FAILED), or null when the purchase no longer waits.
 */
export class CompleteDepositPurchaseCommand extends Command<DepositPurchaseStatus | null> {
  constructor(
    readonly depositPaymentId: number,
    readonly context: RequestContext,
    /** The credit that caused it. */
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
