import { Command } from '@nestjs/cqrs';
import type { RefundSubscriptionEnding } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { RefundToBalanceResponse } from './refund-payment-to-balance.response';

/** Staff give a subscription payment back to its client's balance, whole, and say what becomes of the subscription. */
export class RefundPaymentToBalanceCommand extends Command<RefundToBalanceResponse> {
  constructor(
    readonly actor: Actor,
    readonly paymentId: number,
    readonly reason: string,
    readonly subscriptionEnding: RefundSubscriptionEnding,
    readonly context: RequestContext,
  ) {
    super();
  }
}
