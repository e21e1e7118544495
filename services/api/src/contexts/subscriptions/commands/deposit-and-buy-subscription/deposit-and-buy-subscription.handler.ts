import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import { DepositPurchaseFlow } from '../../application/deposit-purchase.service';
import { DepositAndBuySubscriptionCommand } from './deposit-and-buy-subscription.command';

/** The first step of deposit-and-buy: the deposit opened with the purchase it pays for (`DepositPurchaseFlow`). */
@CommandHandler(DepositAndBuySubscriptionCommand)
export class DepositAndBuySubscriptionHandler implements ICommandHandler<
  DepositAndBuySubscriptionCommand,
  CryptoDepositResponse
> {
  constructor(private readonly flow: DepositPurchaseFlow) {}

  execute({ actor, planId, request, context }: DepositAndBuySubscriptionCommand): Promise<CryptoDepositResponse> {
    const { login, password, method, promoCode } = request;
    return this.flow.openPurchase({ actor, planId, login, password, method, promoCode, context });
  }
}
