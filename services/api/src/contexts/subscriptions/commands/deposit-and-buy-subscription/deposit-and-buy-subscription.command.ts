import { Command } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { DepositAndBuySubscriptionRequestDto } from './deposit-and-buy-subscription.request.dto';

export class DepositAndBuySubscriptionCommand extends Command<CryptoDepositResponse> {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly request: DepositAndBuySubscriptionRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
