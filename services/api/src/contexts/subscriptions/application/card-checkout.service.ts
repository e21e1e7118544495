import { DataSource } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { type CardCheckoutResponse, type DepositPurchaseStatus, type ErrorCode, type PaymentStatus } from '@kupa/proto';
import { assert } from '../../../kernel';
import type { Actor, RequestContext } from '../../../platform/auth';
import { CommandPipeline, type CommandStamp, type LoadedStream } from '../../../platform/commands';
import { RewardTiers } from '../../../platform/config';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { type PlanState, planStreams } from '../../catalog';
import {
  CardDepositCheckouts,
  type CardDepositRow,
  type CardReport,
  CardTopUps,
  type LoadedPaymentStream,
  type LoadedWalletStream,
  ledgerStreams,
  mayEarnAmbassadorBonus,
  openCardDeposit,
  settleCardReport,
} from '../../ledger';
import { decideDepositPurchase } from '../domain/subscription-purchases';
import type { SubscriptionState } from '../domain/subscription.state';
import { withUniqueLogin } from '../infrastructure/logins';
import { ReferralDiscounts } from './referral-discounts';
import { SubscriptionSecrets } from '../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../infrastructure/subscription-streams';
import { type CommandOrigin, DepositPurchaseFlow, heldPromo } from './deposit-purchase.service';
import { DepositPurchaseReader } from './deposit-purchase-reader';
import type { DepositPurchaseState } from '../domain/deposit-purchase.decider';
import type { PromoCodeState } from '../domain/promo-code.decider';
import { depositPurchaseStreams } from '../infrastructure/deposit-purchase-streams';
import { SubscriptionParties } from './subscription-parties';

/** What a card webhook did to its deposit: the payment's status, what it credited, and how its purchase stands. */
export interface CardSettlement {
  paymentId: number;
  status: PaymentStatus;
  creditedMinor: number;
  purchase: DepositPurchaseStatus | null;
}

/**
 * Card checkout (docs/adr/0029-card-checkout.md), the flow in two steps: a checkout at the provider opened now with
 * the purchase it pays for, and, each time the provider's word about it arrives (a webhook or the janitor), the
 * report, the credit and the purchase in one append, by the purchase decision deposit-and-buy uses.
 */
@Injectable()
export class CardCheckouts {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly reader: DepositPurchaseReader,
    private readonly cards: CardDepositCheckouts,
    private readonly topUps: CardTopUps,
    private readonly deposits: DepositPurchaseFlow,
    private readonly parties: SubscriptionParties,
    private readonly secrets: SubscriptionSecrets,
    private readonly discounts: ReferralDiscounts,
    private readonly tiers: RewardTiers,
  ) {}

  /**
   * Opens a card checkout that buys the package once the provider reports the money. The same refusals as buying
   * with the balance come first, plus the card's own: no provider configured (503 `error.card.provider.unavailable`)
   * and a package staff keep off card sale (409 `error.package.cannot.be.bought.via.card.provider`). The checkout
   * charges the price less the buyer's referral discount, as a purchase from the balance would, plus any debt on the
   * balance (ADR 0058); the password waits in `subscription_secrets` under the id the subscription will take.
   */
  async open(command: {
    actor: Actor;
    planId: string;
    login: string;
    password: string;
    promoCode?: string;
    context: RequestContext;
  }): Promise<CardCheckoutResponse> {
    const { actor, planId, login, password, context } = command;
    if (!this.cards.available) throw new ApiError('error.card.provider.unavailable');
    const { intent, depositNeededMinor, promo } = await this.deposits.quotePurchase(
      actor,
      planId,
      login,
      (plan) => {
        if (!plan.cardPaymentAllowed) throw new ApiError('error.package.cannot.be.bought.via.card.provider');
      },
      command.promoCode,
    );
    const checkout = await this.cards.open({
      owner: actor,
      amountMinor: depositNeededMinor,
      productName: intent.planName,
    });
    return this.deposits.recordOpened({
      context,
      paymentId: checkout.paymentId,
      userUuid: actor.userUuid,
      intent,
      byCard: true,
      deposit: (at, state) => openCardDeposit(checkout, at, state),
      password,
      promo,
      result: { paymentId: checkout.paymentId, url: checkout.url },
    });
  }

  /**
   * Applies what the card provider says about a checkout: the payment's report and, the first time the checkout is
   * seen paid, the credit from `world:stripe` together with the purchase it pays for (or the purchase's FAILED, when
   * a rule refuses it now), all in one append under the deposit's, the wallet's, the package's and the
   * subscription's locks. A repeated or stale report decides nothing, so five deliveries in any order credit and buy
   * once.
   */
  async settle(command: { deposit: CardDepositRow; report: CardReport } & CommandOrigin): Promise<CardSettlement> {
    // A card deposit that pays for no purchase is a top-up of the balance: the ledger settles it alone (ADR 0082).
    if ((await this.reader.find(command.deposit.paymentId)) === null) {
      const { deposit, report, context, causationId } = command;
      const settled = await this.topUps.settle(deposit, report, { context, causationId });
      return { ...settled, purchase: null };
    }
    try {
      return await withUniqueLogin(() => this.settleOnce(command, null));
    } catch (error) {
      // A login taken since the checkout opened is only known when the append hits the unique index: the money is
      // then credited with the purchase's FAILED instead.
      if (!(error instanceof ApiError) || error.code !== 'error.login.already.exists') throw error;
      return this.settleOnce(command, 'error.login.already.exists');
    }
  }

  private async settleOnce(
    command: { deposit: CardDepositRow; report: CardReport } & CommandOrigin,
    refusal: ErrorCode | null,
  ): Promise<CardSettlement> {
    const { deposit, report } = command;
    const view = await this.reader.find(deposit.paymentId);
    assert(view !== null && view.purchase.kind === 'BUY', `card deposit ${deposit.paymentId} buys a package`);
    const purchase = view.purchase;
    const buyer = await this.parties.existingUser(deposit.userUuid);
    const password =
      purchase.status === 'WAITING' ? (await this.secrets.newest(purchase.subscriptionId))?.password : undefined;
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    // The role is identity's, read before the locks, as for every deposit's bonus. The bonus's payment stream is
    // named up front like every stream of the command; an unused id is a harmless gap.
    const bonusPaymentId =
      view.amountReceivedMinor > 0 || !mayEarnAmbassadorBonus(buyer.role)
        ? null
        : await ledgerStreams.nextPaymentId(this.dataSource.manager);
    const reservation = this.deposits.loginReservation(purchase);
    const settling = await this.deposits.settlingPromo(deposit.paymentId, buyer.uuid);
    const streams = {
      plan: planStreams.lockedForReading(purchase.paymentPlanId),
      subscription: subscriptionStreams.ref(purchase.subscriptionId),
      deposit: ledgerStreams.payment(deposit.paymentId),
      purchase: depositPurchaseStreams.ref(deposit.paymentId),
      wallet: ledgerStreams.wallet(deposit.userUuid),
      payment: ledgerStreams.payment(paymentId),
      login: reservation.stream,
      ...this.deposits.promoStreams(settling),
    };
    interface Loaded {
      plan: LoadedStream<PlanState>;
      subscription: LoadedStream<SubscriptionState>;
      deposit: LoadedPaymentStream;
      purchase: LoadedStream<DepositPurchaseState | null>;
      wallet: LoadedWalletStream;
      payment: LoadedPaymentStream;
      promo?: LoadedStream<PromoCodeState>;
    }
    const decide = (loaded: Loaded, bonus: LoadedPaymentStream | null, stamp: CommandStamp) => {
      const card = settleCardReport(
        {
          report,
          at: stamp.at,
          role: buyer.role,
          tiers: this.tiers.ambassadorBonus,
          transactionIds: { credit: randomUUID(), bonus: randomUUID() },
        },
        {
          deposit: loaded.deposit.state,
          wallet: loaded.wallet.state,
          bonus: bonus === null || bonusPaymentId === null ? null : { paymentId: bonusPaymentId, state: bonus.state },
        },
      );
      const settlement: CardSettlement = {
        paymentId: deposit.paymentId,
        status: card.depositAfter?.status ?? 'PENDING',
        creditedMinor: card.creditedMinor,
        purchase: loaded.purchase.state?.status ?? null,
      };
      const promo = heldPromo(settling, loaded.promo);
      // A checkout closed unpaid (expired, failed) or held for staff will buy nothing: its code's use is given back.
      const closed =
        card.creditedMinor === 0 && ['TIMEOUT', 'FAILED', 'REVIEW'].includes(settlement.status)
          ? this.deposits.releaseCode(promo, {
              depositPaymentId: deposit.paymentId,
              reason: 'CHECKOUT_CLOSED',
              at: stamp.at,
            })
          : {};
      const reported = { deposit: card.payment, wallet: card.wallet, bonus: card.bonus, ...closed };
      if (card.creditedMinor === 0 || loaded.purchase.state?.status !== 'WAITING')
        return { events: reported, result: settlement };
      assert(password !== undefined, `the password of card deposit ${deposit.paymentId}'s purchase waits for it`);
      const afterWallet = { ...loaded.wallet, state: card.walletAfter };
      const bought = decideDepositPurchase(
        () =>
          this.deposits.decideBuy(
            { plan: loaded.plan, subscription: loaded.subscription, purchase: loaded.purchase },
            { wallet: afterWallet, payment: loaded.payment },
            { purchase, buyer, discountPercent, paymentId, password, at: stamp.at, promo },
            reservation,
          ),
        refusal,
      );
      // The failure records what the deposit brought with this report's credit.
      const events =
        bought.status === 'DONE'
          ? bought.events
          : {
              purchase: this.deposits.decideFailed(loaded.purchase, card.depositAfter, {
                errorCode: bought.errorCode,
                at: stamp.at,
              }),
              wallet: [],
              payment: [],
              subscription: [],
              ...this.deposits.releaseCode(promo, {
                depositPaymentId: deposit.paymentId,
                reason: 'PURCHASE_FAILED',
                at: stamp.at,
              }),
            };
      return {
        events: {
          deposit: card.payment,
          purchase: events.purchase,
          wallet: [...card.wallet, ...events.wallet],
          payment: events.payment,
          subscription: events.subscription,
          bonus: card.bonus,
          ...('promo' in events ? { promo: events.promo } : {}),
        },
        result: { ...settlement, purchase: bought.status },
      };
    };
    // A purchase that will not happen keeps no password: it is forgotten with the FAILED it explains, or when the
    // payment is held for staff because the provider reported other money than was asked (ADR 0058).
    const alongside = async (tx: StreamTransaction, decision: { result: CardSettlement }) => {
      const ends = decision.result.purchase === 'FAILED' || decision.result.status === 'REVIEW';
      if (ends && purchase.status === 'WAITING') await this.secrets.forgetAll(purchase.subscriptionId, tx.manager);
    };
    const origin = { context: command.context, causationId: command.causationId };
    if (bonusPaymentId === null) {
      const { result } = await this.pipeline.run({
        ...origin,
        streams,
        decide: (loaded, stamp) => {
          const { events, result } = decide(loaded, null, stamp);
          const { bonus: _none, ...rest } = events;
          return { events: rest, result };
        },
        alongside,
      });
      return result;
    }
    const { result } = await this.pipeline.run({
      ...origin,
      streams: { ...streams, bonus: ledgerStreams.payment(bonusPaymentId) },
      decide: (loaded, stamp) => decide(loaded, loaded.bonus, stamp),
      alongside,
    });
    return result;
  }
}
