import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ChangeSubscriptionLoginCommand } from './change-subscription-login.command';

@CommandHandler(ChangeSubscriptionLoginCommand)
export class ChangeSubscriptionLoginHandler implements ICommandHandler<ChangeSubscriptionLoginCommand, Subscription> {
  constructor(
    private readonly subscriptions: SubscriptionCommands,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({ actor, subscriptionId, login, context }: ChangeSubscriptionLoginCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    return this.subscriptions.changeLogin({ subscriptionId, login, context });
  }
}
