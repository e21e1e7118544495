import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CardCheckoutResponse } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { CreateCardCheckoutCommand } from './create-card-checkout.command';

@CommandHandler(CreateCardCheckoutCommand)
export class CreateCardCheckoutHandler implements ICommandHandler<CreateCardCheckoutCommand, CardCheckoutResponse> {
  constructor(private readonly subscriptions: SubscriptionCommands) {}

  execute({ actor, planId, request, context }: CreateCardCheckoutCommand): Promise<CardCheckoutResponse> {
    return this.subscriptions.cardCheckout({
      actor,
      planId,
      login: request.login,
      password: request.password,
      context,
    });
  }
}
