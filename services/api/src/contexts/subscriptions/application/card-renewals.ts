import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { RenewalFunding } from '@kupa/proto';
import { DomainError } from '../../../kernel';
import type { RequestContext } from '../../../platform/auth';
import { CardProvider, type OffSessionChargeOutcome } from '../../../platform/card-provider';
import { CommandPipeline, type CommandStamp } from '../../../platform/commands';
import { RewardTiers } from '../../../platform/config';
import { EventStore } from '../../../platform/event-store';
import { ApiError } from '../../../platform/http';
import {
  bookOffSessionCardCharge,
  decideWalletCharge,
  type LoadedPaymentStream,
  type LoadedWalletStream,
  ledgerStreams,
  mayEarnAmbassadorBonus,
} from '../../ledger';
import {
  abandonStaleCardRenewal,
  cardRenewalAmountMinor,
  concludeCardRenewal,
  openCardRenewal,
  settleCardRenewal,
  startCardRenewal,
  unsettledCardRenewal,
} from '../domain/card-renewals';
import { decideRenewal } from '../domain/subscription-purchases';
import type { SubscriptionEvent } from '../domain/subscription.events';
import type { SubscriptionState } from '../domain/subscription.state';
import { subscriptionStreams } from '../infrastructure/subscription-streams';
import { ReferralDiscounts } from './referral-discounts';
import { SavedCards } from './saved-cards';
import { SubscriptionParties } from './subscription-parties';

/**
 * What a card renewal came to, for the sweep:
 * - `RENEWED`: the card's money arrived and the subscription renewed from the balance in the same append;
 * - `WAITING`: an attempt is open (pending at the provider, or the provider did not answer): nothing else now;
 * - `BALANCE`: no card to charge (none saved, switch off, the balance covers it, or the card failed this period):
 *   the balance path as for any renewal;
 * - `DONE`: another pass or the owner already did it (renewed, ended, not renewable any more).
 */
export type CardRenewalResult = 'RENEWED' | 'WAITING' | 'BALANCE' | 'DONE';

/** What the sweep knows of a due renewal funded by the card. */
export interface DueCardRenewal {
  subscriptionId: string;
  userUuid: string;
  funding: RenewalFunding;
  /** The renewal's price now, after the owner's discount. */
  priceMinor: number;
  balanceMinor: number;
}

/** The codes that mean another pass (or the owner) already did what this one meant to do. */
const ALREADY_DONE = new Set([
  'error.subscription.already.renewed',
  'error.subscription.not.renewable',
  'error.subscription.ended',
]);

/**
 * Renewals charged to the saved card off-session (docs/adr/0086-renewals-charged-to-the-saved-card.md). The attempt is
 * recorded under the subscription's lock before the provider is asked, and its id is in the provider's idempotency
 * key (`kupa-renewal-{subscriptionId}-{attemptId}`): two workers, a crash between recording and charging, or an
 * outage all send the same key again, which the provider answers with the same PaymentIntent. The money that arrives
 * is booked as a card deposit, the renewal from the balance and the attempt's settlement in one append.
 */
@Injectable()
export class CardRenewals {
  private readonly logger = new Logger('CardRenewals');

  constructor(
    private readonly provider: CardProvider,
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly savedCards: SavedCards,
    private readonly parties: SubscriptionParties,
    private readonly discounts: ReferralDiscounts,
    private readonly tiers: RewardTiers,
    private readonly store: EventStore,
  ) {}

  /** The sweep's step for a due renewal whose funding is not `BALANCE`. */
  async renew(due: DueCardRenewal, context: RequestContext): Promise<CardRenewalResult> {
    const card = await this.savedCards.chargeable(due.userUuid);
    if (card === null) return 'BALANCE';
    const amountMinor = cardRenewalAmountMinor(due.funding, due.priceMinor, due.balanceMinor);
    if (amountMinor <= 0) return 'BALANCE';
    let start;
    try {
      ({ result: start } = await this.pipeline.run({
        context,
        causationId: null,
        streams: { subscription: subscriptionStreams.ref(due.subscriptionId) },
        decide: ({ subscription }, { at }) => {
          const decision = startCardRenewal(
            { attemptId: randomUUID(), amountMinor, paymentMethodId: card.paymentMethodId, at },
            subscription.state,
          );
          return { events: { subscription: decision.events }, result: decision };
        },
      }));
    } catch (error) {
      if (error instanceof DomainError && ALREADY_DONE.has(error.code)) return 'DONE';
      throw error;
    }
    if (start.waiting) return 'WAITING';
    if (start.charge === null) return 'BALANCE';
    const attempt = start.charge;
    let outcome: OffSessionChargeOutcome;
    try {
      // The attempt as recorded, whatever the card is now: the same key must carry the same parameters.
      outcome = await this.provider.chargeOffSession({
        customerId: card.customerId,
        paymentMethodId: attempt.paymentMethodId,
        amountMinor: attempt.amountMinor,
        idempotencyKey: `kupa-renewal-${due.subscriptionId}-${attempt.attemptId}`,
        description: 'Kupa subscription renewal',
        metadata: { subscriptionId: due.subscriptionId, attemptId: attempt.attemptId },
      });
    } catch (error) {
      // The attempt stays open: the next pass sends the same key, so a charge Stripe did make is the one it answers.
      if (error instanceof ApiError && error.code === 'error.card.provider.unavailable') return 'WAITING';
      throw error;
    }
    const applied = await this.apply(due.subscriptionId, attempt.attemptId, outcome, context, null);
    if (applied === 'RENEWED' || applied === 'WAITING') return applied;
    // Declined, the holder wanted, or the money arrived but renewed nothing (held for review): the balance path.
    return 'BALANCE';
  }

  /**
   * A signed PaymentIntent webhook: the PaymentIntent is read back from the provider and, when it is one of our
   * renewal attempts, its outcome applied (once, whatever the order or how many times). Whether it was ours.
   */
  async onPaymentIntent(
    paymentIntentId: string,
    context: RequestContext,
    causationId: string | null,
  ): Promise<boolean> {
    const intent = await this.provider.retrievePaymentIntent(paymentIntentId);
    if (intent === null) return false;
    const { subscriptionId, attemptId } = intent.metadata;
    if (!subscriptionId || !attemptId) return false;
    const known = await this.attemptOf(subscriptionId, attemptId);
    if (!known) return false;
    await this.apply(subscriptionId, attemptId, intent.outcome, context, causationId);
    return true;
  }

  /**
   * The lost-webhook janitor: an attempt pending at the provider is read back and concluded; an attempt recorded but
   * never answered on a subscription the sweep no longer charges is abandoned once the provider's keys expire.
   */
  async checkOpen(subscriptionId: string, context: RequestContext): Promise<boolean> {
    const state = await subscriptionStreams.currentState(this.store, subscriptionId);
    if (!state.exists) return false;
    const open = openCardRenewal(state);
    if (open === null) return false;
    if (open.status === 'PENDING' && open.paymentIntentId !== null) {
      const intent = await this.provider.retrievePaymentIntent(open.paymentIntentId);
      if (intent === null || intent.outcome.outcome === 'pending') return false;
      await this.apply(subscriptionId, open.attemptId, intent.outcome, context, null);
      return true;
    }
    const { events } = await this.pipeline.run({
      context,
      causationId: null,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => {
        const abandoned = abandonStaleCardRenewal({ at }, subscription.state);
        return { events: { subscription: abandoned }, result: null };
      },
    });
    return events.length > 0;
  }

  private async attemptOf(subscriptionId: string, attemptId: string): Promise<boolean> {
    try {
      const state = await subscriptionStreams.currentState(this.store, subscriptionId);
      return state.exists && state.cardRenewalAttempts.some((attempt) => attempt.attemptId === attemptId);
    } catch {
      return false;
    }
  }

  /** Applies the provider's word on one attempt. */
  private async apply(
    subscriptionId: string,
    attemptId: string,
    outcome: OffSessionChargeOutcome,
    context: RequestContext,
    causationId: string | null,
  ): Promise<'RENEWED' | 'SETTLED' | 'WAITING' | 'FAILED' | 'NONE'> {
    if (outcome.outcome === 'succeeded') return this.settle(subscriptionId, attemptId, outcome, context, causationId);
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: concludeCardRenewal({ attemptId, answer: outcome, at }, subscription.state) },
        result: null,
      }),
    });
    return outcome.outcome === 'pending' ? 'WAITING' : 'FAILED';
  }

  /**
   * The attempt's money arrived: in ONE append, the card deposit to the owner's wallet (with an ambassador's bonus),
   * the renewal from the balance with its SUBSCRIPTION_PAYMENT when it is still due and the balance covers it, and
   * the attempt settled. A renewal no longer due books the deposit alone: the provider took the money, it lands on
   * the balance. An attempt already settled books nothing.
   */
  private async settle(
    subscriptionId: string,
    attemptId: string,
    paid: Extract<OffSessionChargeOutcome, { outcome: 'succeeded' }>,
    context: RequestContext,
    causationId: string | null,
  ): Promise<'RENEWED' | 'SETTLED' | 'NONE'> {
    const owner = await this.parties.ownerOf(subscriptionId);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    // An unused id is a harmless gap, as for a card top-up.
    const earnsBonus = mayEarnAmbassadorBonus(owner.role);
    const [depositId, renewalPaymentId, bonusPaymentId] = await ledgerStreams.nextPaymentIds(
      this.dataSource.manager,
      earnsBonus ? 3 : 2,
    );
    const bonusId = earnsBonus ? bonusPaymentId : null;
    const decide = (
      loaded: {
        subscription: { state: SubscriptionState };
        wallet: LoadedWalletStream;
        deposit: LoadedPaymentStream;
        renewal: LoadedPaymentStream;
      },
      bonus: LoadedPaymentStream | null,
      { at }: CommandStamp,
    ) => {
      const state = loaded.subscription.state;
      const attempt = unsettledCardRenewal(state, attemptId);
      if (attempt === null) return { events: none(), result: 'NONE' as const };
      const card = bookOffSessionCardCharge(
        {
          paymentId: depositId,
          owner: { userUuid: owner.uuid, email: owner.email },
          amountAskedMinor: attempt.amountMinor,
          paymentIntentId: paid.paymentIntentId,
          provider: this.provider.name,
        },
        {
          report: {
            provider: this.provider.name,
            providerEventId: `${paid.paymentIntentId}:succeeded`,
            providerEventType: 'payment_intent.succeeded',
            providerPaymentId: paid.paymentIntentId,
            providerStatus: 'paid',
            amountTotalMinor: paid.amountMinor,
            currency: paid.currency,
          },
          at,
          role: owner.role,
          tiers: this.tiers.ambassadorBonus,
          transactionIds: { credit: randomUUID(), bonus: randomUUID() },
        },
        {
          deposit: loaded.deposit.state,
          wallet: loaded.wallet.state,
          bonus: bonus === null || bonusId === null ? null : { paymentId: bonusId, state: bonus.state },
        },
      );
      const subscriptionEvents: SubscriptionEvent[] = settleCardRenewal(
        { attemptId, paymentIntentId: paid.paymentIntentId, depositPaymentId: depositId, at },
        state,
      );
      let renewal: { subscription: SubscriptionEvent[]; wallet: typeof card.wallet; payment: typeof card.payment } = {
        subscription: [],
        wallet: [],
        payment: [],
      };
      const renewed = renewalIfDue({ paymentId: renewalPaymentId, discountPercent, at }, state);
      if (renewed !== null && renewed.charge.amountMinor <= card.walletAfter.balanceMinor) {
        const money = decideWalletCharge(
          { wallet: card.walletAfter, payment: loaded.renewal.state },
          {
            user: { uuid: owner.uuid, email: owner.email },
            paymentId: renewalPaymentId,
            subscriptionId,
            ...renewed.charge,
            at,
          },
          randomUUID(),
        );
        renewal = { subscription: renewed.subscription, ...money };
      }
      return {
        events: {
          subscription: [...subscriptionEvents, ...renewal.subscription],
          wallet: [...card.wallet, ...renewal.wallet],
          deposit: card.payment,
          renewal: renewal.payment,
          bonus: card.bonus,
        },
        result: renewal.subscription.length > 0 ? ('RENEWED' as const) : ('SETTLED' as const),
      };
    };
    const streams = {
      subscription: subscriptionStreams.ref(subscriptionId),
      wallet: ledgerStreams.wallet(owner.uuid),
      deposit: ledgerStreams.payment(depositId),
      renewal: ledgerStreams.payment(renewalPaymentId),
    };
    if (bonusId === null) {
      const { result } = await this.pipeline.run({
        context,
        causationId,
        streams,
        decide: (loaded, stamp) => {
          const { events, result } = decide(loaded, null, stamp);
          const { bonus: _bonus, ...rest } = events;
          return { events: rest, result };
        },
      });
      return result;
    }
    const { result } = await this.pipeline.run({
      context,
      causationId,
      streams: { ...streams, bonus: ledgerStreams.payment(bonusId) },
      decide: (loaded, stamp) => decide(loaded, loaded.bonus, stamp),
    });
    return result;
  }
}

function none() {
  return { subscription: [], wallet: [], deposit: [], renewal: [], bonus: [] };
}

/** The automatic renewal, when the subscription still takes one now; null when it is no longer due. */
function renewalIfDue(
  command: { paymentId: number; discountPercent: number; at: Date },
  state: SubscriptionState,
): ReturnType<typeof decideRenewal> | null {
  try {
    return decideRenewal({ ...command, automatic: true, quotedPriceMinor: null }, state);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}
