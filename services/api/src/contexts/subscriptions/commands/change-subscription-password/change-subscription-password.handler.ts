import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ChangeSubscriptionPasswordCommand } from './change-subscription-password.command';

@CommandHandler(ChangeSubscriptionPasswordCommand)
export class ChangeSubscriptionPasswordHandler implements ICommandHandler<ChangeSubscriptionPasswordCommand, void> {
  constructor(
    private readonly subscriptions: SubscriptionCommands,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({ actor, subscriptionId, password, context }: ChangeSubscriptionPasswordCommand): Promise<void> {
    await this.reader.visibleTo(actor, subscriptionId);
    await this.subscriptions.changePassword({ subscriptionId, password, context });
  }
}
