import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { RenewSubscriptionCommand } from './renew-subscription.command';

@CommandHandler(RenewSubscriptionCommand)
export class RenewSubscriptionHandler implements ICommandHandler<RenewSubscriptionCommand, Subscription> {
  constructor(
    private readonly subscriptions: SubscriptionCommands,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({ actor, subscriptionId, context }: RenewSubscriptionCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    return this.subscriptions.renew({ subscriptionId, automatic: false, context });
  }
}
