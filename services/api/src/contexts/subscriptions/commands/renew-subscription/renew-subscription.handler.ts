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
import { PromoCodes } from '../../application/promo-codes';
import { redeemPromoCode } from '../../domain/promo-code.decider';
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
    private readonly promoCodes: PromoCodes,
  ) {}

  async execute(command: RenewSubscriptionCommand): Promise<Subscription> {
    const { actor, subscriptionId, context, causationId } = command;
    if (actor !== null) await this.reader.visibleTo(actor, subscriptionId);
    const owner = await this.parties.ownerOf(subscriptionId);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const promo = await this.promoCodes.request(command.promoCode, 'RENEWAL', owner.uuid);
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    await this.pipeline.run({
      context,
      causationId,
      streams: {
        subscription: subscriptionStreams.ref(subscriptionId),
        wallet: ledgerStreams.wallet(owner.uuid),
        payment: ledgerStreams.payment(paymentId),
        ...this.promoCodes.streams(promo),
      },
      decide: (loaded, { at }) => {
        const subscription = loaded.subscription.state;
        // With a code, the larger of it and the referral discount applies; the code's use is counted when it won.
        const offer =
          promo === null || !subscription.exists || subscription.planId === null
            ? null
            : redeemPromoCode(
                {
                  userUuid: owner.uuid,
                  use: promo.use,
                  planId: subscription.planId,
                  listPriceMinor: subscription.listPriceMinor,
                  isNewClient: promo.isNewClient,
                  referralPercent: discountPercent,
                  paymentId,
                  subscriptionId,
                  at,
                },
                loaded.promo.state,
              );
        const decision = decideRenewal(
          {
            paymentId,
            discountPercent: offer?.price.discountPercent ?? discountPercent,
            codeDiscountMinor: offer?.price.promoDiscountMinor ?? 0,
            at,
            automatic: actor === null,
            quotedPriceMinor: null,
          },
          subscription,
        );
        const money = decideWalletCharge(
          { wallet: loaded.wallet.state, payment: loaded.payment.state },
          { user: { uuid: owner.uuid, email: owner.email }, paymentId, subscriptionId, ...decision.charge, at },
          randomUUID(),
        );
        return {
          events: { subscription: decision.subscription, ...money, ...(offer === null ? {} : { promo: offer.events }) },
          result: null,
        };
      },
    });
    return this.parties.subscription(subscriptionId);
  }
}
