import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { BuySubscriptionCommand } from './buy-subscription.command';

@CommandHandler(BuySubscriptionCommand)
export class BuySubscriptionHandler implements ICommandHandler<BuySubscriptionCommand, Subscription> {
  constructor(private readonly subscriptions: SubscriptionCommands) {}

  execute({ actor, planId, request, idempotencyKey, context }: BuySubscriptionCommand): Promise<Subscription> {
    return this.subscriptions.buy({
      buyerUuid: actor.userUuid,
      planId,
      login: request.login,
      password: request.password,
      idempotencyKey,
      context,
    });
  }
}
