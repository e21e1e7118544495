import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import { DepositPurchaseFlow } from '../../application/deposit-purchase.service';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { DepositAndRenewSubscriptionCommand } from './deposit-and-renew-subscription.command';

/** The first step of deposit-and-renew: the deposit opened with the renewal it pays for (`DepositPurchaseFlow`). */
@CommandHandler(DepositAndRenewSubscriptionCommand)
export class DepositAndRenewSubscriptionHandler implements ICommandHandler<
  DepositAndRenewSubscriptionCommand,
  CryptoDepositResponse
> {
  constructor(
    private readonly flow: DepositPurchaseFlow,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({
    actor,
    subscriptionId,
    method,
    shownAmountMinor,
    context,
    promoCode,
  }: DepositAndRenewSubscriptionCommand): Promise<CryptoDepositResponse> {
    await this.reader.visibleTo(actor, subscriptionId);
    return this.flow.openRenewal({ actor, subscriptionId, method, shownAmountMinor, promoCode, context });
  }
}
