import { DataSource } from 'typeorm';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { planForSale, planStreams } from '../../../catalog';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import { decideWalletCharge, ledgerStreams } from '../../../ledger';
import { SubscriptionParties } from '../../application/subscription-parties';
import { purchasedPlan } from '../../application/purchased-plan';
import { decidePurchase } from '../../domain/subscription-purchases';
import { LoginReservation, withUniqueLogin } from '../../infrastructure/logins';
import { ReferralDiscounts } from '../../application/referral-discounts';
import { PromoCodes } from '../../application/promo-codes';
import { redeemPromoCode } from '../../domain/promo-code.decider';
import { SubscriptionSecrets } from '../../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { subscriptionFromPurchase } from '../../projections/subscriptions/subscription-view';
import { actorLabelOf } from '../../projections/subscriptions/subscriptions.projection';
import { BuySubscriptionCommand } from './buy-subscription.command';

export const BUY_WITH_BALANCE_ROUTE = 'POST /subscriptions/balance/payment-plans/{planId}';

/**
 * Buys a package with the balance: the package's stream (its terms and status, and the lock that keeps it from being
 * deleted or repriced meanwhile), the new subscription, the buyer's wallet and the SUBSCRIPTION_PAYMENT are one
 * atomic append; the password goes to `subscription_secrets` in the same transaction.
 */
@CommandHandler(BuySubscriptionCommand)
export class BuySubscriptionHandler implements ICommandHandler<BuySubscriptionCommand, Subscription> {
  constructor(
    private readonly idempotent: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly dataSource: DataSource,
    private readonly parties: SubscriptionParties,
    private readonly discounts: ReferralDiscounts,
    private readonly secrets: SubscriptionSecrets,
    private readonly subscriptions: SubscriptionReader,
    private readonly promoCodes: PromoCodes,
  ) {}

  async execute({ actor, planId, request, idempotencyKey, context }: BuySubscriptionCommand): Promise<Subscription> {
    const { login, password } = request;
    const idempotency = this.keys.request(actor.userUuid, idempotencyKey, BUY_WITH_BALANCE_ROUTE, {
      planId,
      login,
      password,
      promoCode: request.promoCode?.trim().toUpperCase() ?? '',
    });
    const known = await this.keys.replayIfKnown<Subscription>(idempotency);
    if (known) return known;
    // The payment id is taken beside the buyer's read (which reads whom they referred too, for the discount); a
    // purchase refused before its append leaves a harmless gap.
    const [{ buyer, referredUuids }, paymentId] = await Promise.all([
      this.parties.existingBuyer(actor.userUuid),
      ledgerStreams.nextPaymentId(this.dataSource.manager),
    ]);
    const discountPercent = await this.discounts.percentForReferred(referredUuids);
    const promo = await this.promoCodes.request(request.promoCode, 'PURCHASE', buyer.uuid);
    const subscriptionId = randomUUID();
    const reservation = new LoginReservation(login, this.subscriptions);
    return withUniqueLogin(() =>
      this.idempotent.run(idempotency, {
        context,
        causationId: null,
        streams: {
          plan: planStreams.lockedForReading(planId),
          subscription: subscriptionStreams.ref(subscriptionId),
          wallet: ledgerStreams.wallet(buyer.uuid),
          payment: ledgerStreams.payment(paymentId),
          login: reservation.stream,
          ...this.promoCodes.streams(promo),
        },
        decide: (loaded, stamp) => {
          const plan = purchasedPlan(planForSale(loaded.plan.state));
          // With a code, the larger of it and the referral discount applies; the code's use is counted when it won.
          const offer =
            promo === null
              ? null
              : redeemPromoCode(
                  {
                    userUuid: buyer.uuid,
                    use: promo.use,
                    planId: plan.planId,
                    listPriceMinor: plan.priceMinor,
                    isNewClient: promo.isNewClient,
                    referralPercent: discountPercent,
                    paymentId,
                    subscriptionId,
                    at: stamp.at,
                  },
                  loaded.promo.state,
                );
          const decision = decidePurchase(
            {
              subscriptionId,
              userUuid: buyer.uuid,
              userEmail: buyer.email,
              plan,
              discountPercent: offer?.price.discountPercent ?? discountPercent,
              codeDiscountMinor: offer?.price.promoDiscountMinor ?? 0,
              paymentId,
              login,
              password,
              quotedPriceMinor: null,
              at: stamp.at,
            },
            loaded.subscription.state,
          );
          const money = decideWalletCharge(
            { wallet: loaded.wallet.state, payment: loaded.payment.state },
            {
              user: { uuid: buyer.uuid, email: buyer.email },
              paymentId,
              subscriptionId,
              ...decision.charge,
              at: stamp.at,
            },
            randomUUID(),
          );
          reservation.reserve(subscriptionId);
          return {
            events: {
              subscription: decision.subscription,
              wallet: money.wallet,
              payment: money.payment,
              ...(offer === null ? {} : { promo: offer.events }),
            },
            result: subscriptionFromPurchase(decision.purchased, actorLabelOf(stamp)),
          };
        },
        alongside: (tx, _decision, { at }) =>
          this.secrets.write(tx.manager, { subscriptionId, version: 1, password, at }),
      }),
    );
  }
}
