import type { Actor, RequestContext } from '../../../../platform/auth';
import type { DepositAndBuySubscriptionRequestDto } from './deposit-and-buy-subscription.request.dto';

export class DepositAndBuySubscriptionCommand {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly request: DepositAndBuySubscriptionRequestDto,
    readonly context: RequestContext,
  ) {}
}
