import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { DepositAndRenewSubscriptionCommand } from './deposit-and-renew-subscription.command';

@CommandHandler(DepositAndRenewSubscriptionCommand)
export class DepositAndRenewSubscriptionHandler implements ICommandHandler<
  DepositAndRenewSubscriptionCommand,
  CryptoDepositResponse
> {
  constructor(
    private readonly subscriptions: SubscriptionCommands,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({
    actor,
    subscriptionId,
    method,
    context,
  }: DepositAndRenewSubscriptionCommand): Promise<CryptoDepositResponse> {
    await this.reader.visibleTo(actor, subscriptionId);
    return this.subscriptions.depositAndRenew({ actor, subscriptionId, method, context });
  }
}
