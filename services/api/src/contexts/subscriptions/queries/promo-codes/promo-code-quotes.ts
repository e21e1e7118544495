import { Injectable } from '@nestjs/common';
import { minorToAmount, type PromoCodeQuote } from '@kupa/proto';
import { type Actor, type RequestContext } from '../../../../platform/auth';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError, ValidationFailedError } from '../../../../platform/http';
import { planForSale, planStreams } from '../../../catalog';
import { PromoCodes } from '../../application/promo-codes';
import { ReferralDiscounts } from '../../application/referral-discounts';
import { SubscriptionParties } from '../../application/subscription-parties';
import { quotePromoCode } from '../../domain/promo-code.decider';
import { promoCodeStreams } from '../../infrastructure/promo-code-streams';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';

/**
 * The price with a code before the client confirms (docs/adr/0088-promo-codes.md): the same rules as the purchase or
 * renewal, on the streams locked to be read, with nothing appended and the code not spent. A refusal here is the
 * refusal the payment would meet now; a use by someone else meanwhile can still make the payment's answer differ.
 */
@Injectable()
export class PromoCodeQuotes {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly promoCodes: PromoCodes,
    private readonly parties: SubscriptionParties,
    private readonly discounts: ReferralDiscounts,
    private readonly subscriptions: SubscriptionReader,
  ) {}

  async quote(
    actor: Actor,
    query: { code: string; planId?: string; subscriptionId?: string },
    context: RequestContext,
  ): Promise<PromoCodeQuote> {
    if (query.planId === undefined && query.subscriptionId === undefined)
      throw new ValidationFailedError([{ field: 'planId', error: 'error.validation.required' }]);
    if (query.planId !== undefined && query.subscriptionId !== undefined)
      throw new ValidationFailedError([{ field: 'subscriptionId', error: 'error.validation.invalid.field' }]);
    const code = await this.promoCodes.existing(query.code);
    const buyer = await this.parties.existingUser(actor.userUuid);
    const referralPercent = await this.discounts.percentFor(buyer.profileId);
    const isNewClient = await this.promoCodes.isNewClient(buyer.uuid);
    const promo = promoCodeStreams.lockedForReading(code);
    const { result: price } =
      query.planId !== undefined
        ? await this.pipeline.run({
            context,
            causationId: null,
            streams: { promo, plan: planStreams.lockedForReading(query.planId) },
            decide: (loaded, { at }) => {
              const plan = planForSale(loaded.plan.state);
              return {
                events: {},
                result: quotePromoCode(
                  {
                    userUuid: buyer.uuid,
                    use: 'PURCHASE',
                    planId: plan.planId,
                    listPriceMinor: plan.priceMinor,
                    isNewClient,
                    referralPercent,
                    at,
                  },
                  loaded.promo.state,
                ),
              };
            },
          })
        : await this.renewalQuote(actor, query.subscriptionId as string, {
            code,
            buyer: buyer.uuid,
            isNewClient,
            referralPercent,
            context,
          });
    return {
      code,
      listPrice: minorToAmount(price.listPriceMinor),
      price: minorToAmount(price.priceMinor),
      applied: price.applied,
      discountPercent: price.discountPercent,
      promoDiscount: minorToAmount(price.promoDiscountMinor),
      currency: 'USD',
    };
  }

  private async renewalQuote(
    actor: Actor,
    subscriptionId: string,
    facts: { code: string; buyer: string; isNewClient: boolean; referralPercent: number; context: RequestContext },
  ) {
    // Another's subscription is 404, as on the renewal itself.
    await this.subscriptions.visibleTo(actor, subscriptionId);
    return this.pipeline.run({
      context: facts.context,
      causationId: null,
      streams: {
        promo: promoCodeStreams.lockedForReading(facts.code),
        subscription: subscriptionStreams.lockedForReading(subscriptionId),
      },
      decide: (loaded, { at }) => {
        const subscription = loaded.subscription.state;
        if (!subscription.exists || subscription.planId === null)
          throw new ApiError('error.subscription.not.renewable');
        return {
          events: {},
          result: quotePromoCode(
            {
              userUuid: facts.buyer,
              use: 'RENEWAL',
              planId: subscription.planId,
              listPriceMinor: subscription.listPriceMinor,
              isNewClient: facts.isNewClient,
              referralPercent: facts.referralPercent,
              at,
            },
            loaded.promo.state,
          ),
        };
      },
    });
  }
}
