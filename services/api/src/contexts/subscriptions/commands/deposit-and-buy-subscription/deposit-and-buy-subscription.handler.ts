import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { DepositAndBuySubscriptionCommand } from './deposit-and-buy-subscription.command';

@CommandHandler(DepositAndBuySubscriptionCommand)
export class DepositAndBuySubscriptionHandler implements ICommandHandler<
  DepositAndBuySubscriptionCommand,
  CryptoDepositResponse
> {
  constructor(private readonly subscriptions: SubscriptionCommands) {}

  execute({ actor, planId, request, context }: DepositAndBuySubscriptionCommand): Promise<CryptoDepositResponse> {
    return this.subscriptions.depositAndBuy({
      actor,
      planId,
      login: request.login,
      password: request.password,
      method: request.method,
      context,
    });
  }
}
