import { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { decideWalletCharge, ledgerStreams } from '../../../ledger';
import { SubscriptionParties } from '../../application/subscription-parties';
import { decideRenewal } from '../../domain/subscription-purchases';
import { ReferralDiscounts } from '../../application/referral-discounts';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { RenewSubscriptionCommand } from './renew-subscription.command';

/**
 * One more period from the owner's balance, at the package's price less the owner's referral discount of the moment:
 * the renewal, the wallet debit and the SUBSCRIPTION_PAYMENT in one append. Two renewals at once queue on the
 * subscription's lock, and the second finds it paid a period ahead (`error.subscription.already.renewed`). Without an
 * actor it is the sweep's automatic renewal, which only recurrent subscriptions nobody cancelled accept.
 */
@CommandHandler(RenewSubscriptionCommand)
export class RenewSubscriptionHandler implements ICommandHandler<RenewSubscriptionCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly parties: SubscriptionParties,
    private readonly discounts: ReferralDiscounts,
    private readonly reader: SubscriptionReader,
  ) {}

  async execute({ actor, subscriptionId, context, causationId }: RenewSubscriptionCommand): Promise<Subscription> {
    if (actor !== null) await this.reader.visibleTo(actor, subscriptionId);
    const owner = await this.parties.ownerOf(subscriptionId);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    await this.pipeline.run({
      context,
      causationId,
      streams: {
        subscription: subscriptionStreams.ref(subscriptionId),
        wallet: ledgerStreams.wallet(owner.uuid),
        payment: ledgerStreams.payment(paymentId),
      },
      decide: (loaded, { at }) => {
        const decision = decideRenewal(
          { paymentId, discountPercent, at, automatic: actor === null, quotedPriceMinor: null },
          loaded.subscription.state,
        );
        const money = decideWalletCharge(
          { wallet: loaded.wallet.state, payment: loaded.payment.state },
          { user: { uuid: owner.uuid, email: owner.email }, paymentId, subscriptionId, ...decision.charge, at },
          randomUUID(),
        );
        return { events: { subscription: decision.subscription, ...money }, result: null };
      },
    });
    return this.parties.subscription(subscriptionId);
  }
}
