import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { CancelSubscriptionCommand } from './cancel-subscription.command';

@CommandHandler(CancelSubscriptionCommand)
export class CancelSubscriptionHandler implements ICommandHandler<CancelSubscriptionCommand, Subscription> {
  constructor(
    private readonly subscriptions: SubscriptionCommands,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({ actor, subscriptionId, context }: CancelSubscriptionCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    return this.subscriptions.cancel({ subscriptionId, context });
  }
}
