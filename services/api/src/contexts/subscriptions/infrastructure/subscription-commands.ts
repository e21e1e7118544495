import { Injectable } from '@nestjs/common';
import {
  type CardCheckoutResponse,
  type CryptoDepositResponse,
  type CryptoMethod,
  depositNeededMinor,
  type DepositPurchaseStatus,
  discountedPriceMinor,
  type ErrorCode,
  type PaymentStatus,
  type Subscription,
  type SubscriptionPurchasedData,
} from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert, DomainError } from '../../../kernel';
import type { Actor, RequestContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { CommandPipeline, type CommandStamp, type LoadedStream } from '../../../platform/commands';
import { EventStore, type StreamTransaction } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { planForSale, type PlanState, planStreams } from '../../catalog';
import { TrialUse, UserBalances, UserReader, type UserView } from '../../identity';
import {
  CardDeposits,
  type CardDepositRow,
  type CardReport,
  DepositPurchases,
  type DepositPurchaseView,
  IdempotencyKeys,
  IdempotentCommands,
  type LoadedDeposit,
  type LoadedSubscriptionPayment,
  SubscriptionPayments,
} from '../../ledger';
import {
  activateSubscription,
  cancelSubscription,
  changeLogin,
  changePassword,
  deactivateRecurrence,
  endSubscription,
  failProvisioning,
  purchaseSubscription,
  purchaseTrial,
  recordRenewalFailure,
  renewSubscription,
} from '../domain/subscription.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import type { SubscriptionState } from '../domain/subscription.state';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';
import { subscriptionFromPurchase } from '../projections/subscriptions/subscription-view';
import { actorLabelOf } from '../projections/subscriptions/subscriptions.projection';
import { withUniqueLogin } from './logins';
import { ReferralDiscounts } from './referral-discounts';
import { SubscriptionSecrets } from './subscription-secrets';
import { subscriptionStreams } from './subscription-streams';

export const BUY_WITH_BALANCE_ROUTE = 'POST /subscriptions/balance/payment-plans/{planId}';

/** What a card webhook did to its deposit: the payment's status, what it credited, and how its purchase stands. */
export interface CardSettlement {
  paymentId: number;
  status: PaymentStatus;
  creditedMinor: number;
  purchase: DepositPurchaseStatus | null;
}

/** Who asks, and when a processor asks: the event that caused the command (`causationId`), null for a request. */
export interface CommandOrigin {
  context: RequestContext;
  causationId?: string | null;
}

/**
 * Every subscription command, each one `CommandPipeline` run (ADR 0011, docs/adr/0024-subscriptions.md). The HTTP
 * handlers call these after their ownership checks; the processors that provisioning, the renewal and expiry sweep
 * and the mails add call the same methods with the system context and the causing event's position, so a request and
 * a processor change a subscription by the same rules.
 */
@Injectable()
export class SubscriptionCommands {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly idempotent: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly payments: SubscriptionPayments,
    private readonly users: UserReader,
    private readonly balances: UserBalances,
    private readonly subscriptions: SubscriptionReader,
    private readonly secrets: SubscriptionSecrets,
    private readonly discounts: ReferralDiscounts,
    private readonly depositPurchases: DepositPurchases,
    private readonly cards: CardDeposits,
    private readonly store: EventStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Buys a package with the balance: the package's stream (its terms and status, and the lock that keeps it from
   * being deleted or repriced meanwhile), the new subscription, the buyer's wallet and the SUBSCRIPTION_PAYMENT are
   * one atomic append; the password goes to `subscription_secrets` in the same transaction.
   */
  async buy(
    command: {
      buyerUuid: string;
      planId: string;
      login: string;
      password: string;
      idempotencyKey: string | null;
    } & CommandOrigin,
  ): Promise<Subscription> {
    const { planId, login, password } = command;
    const idempotency = this.keys.request(command.buyerUuid, command.idempotencyKey, BUY_WITH_BALANCE_ROUTE, {
      planId,
      login,
      password,
    });
    const known = await this.keys.replayIfKnown<Subscription>(idempotency);
    if (known) return known;
    // The payment id is taken beside the buyer's read; a purchase refused before its append leaves a harmless gap.
    const [buyer, paymentId] = await Promise.all([this.existingUser(command.buyerUuid), this.payments.nextPaymentId()]);
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const subscriptionId = randomUUID();
    const ledger = this.payments.streams(buyer.uuid, paymentId);
    return withUniqueLogin(() =>
      this.idempotent.run(idempotency, {
        context: command.context,
        causationId: command.causationId ?? null,
        streams: {
          plan: planStreams.read(planId),
          subscription: subscriptionStreams.ref(subscriptionId),
          wallet: ledger.wallet,
          payment: ledger.payment,
        },
        decide: (loaded, stamp) => {
          const { data, ...events } = this.decidePurchase(loaded, loaded, {
            subscriptionId,
            buyer,
            discountPercent,
            paymentId,
            login,
            password,
            quotedPriceMinor: null,
            at: stamp.at,
          });
          return { events, result: subscriptionFromPurchase(data, actorLabelOf(stamp)) };
        },
        alongside: (tx, _decision, stamp) => this.keepPassword(tx, subscriptionId, 1, password, stamp),
      }),
    );
  }

  /** Takes the trial: the user's stream says it is used, in the same append as the trial subscription. */
  async takeTrial(
    command: { userUuid: string; login: string; password: string } & CommandOrigin,
  ): Promise<Subscription> {
    const user = await this.existingUser(command.userUuid);
    const subscriptionId = randomUUID();
    const { result } = await withUniqueLogin(() =>
      this.pipeline.run({
        context: command.context,
        causationId: command.causationId ?? null,
        streams: { user: TrialUse.stream(user.uuid), subscription: subscriptionStreams.ref(subscriptionId) },
        decide: (loaded, stamp) => {
          const used = TrialUse.decide(loaded.user, stamp.at);
          const purchased = purchaseTrial(
            {
              subscriptionId,
              userUuid: user.uuid,
              userEmail: user.email,
              login: command.login,
              password: command.password,
              at: stamp.at,
            },
            loaded.subscription.state,
          );
          return {
            events: { user: used, subscription: purchased },
            result: subscriptionFromPurchase(purchaseData(purchased), actorLabelOf(stamp)),
          };
        },
        alongside: (tx, _decision, stamp) => this.keepPassword(tx, subscriptionId, 1, command.password, stamp),
      }),
    );
    return result;
  }

  /**
   * One more period from the owner's balance, at the package's price less the owner's referral discount of the moment:
   * the renewal, the wallet debit and the SUBSCRIPTION_PAYMENT in one append. Two renewals at once queue on the
   * subscription's lock, and the second finds it paid a period ahead (`error.subscription.already.renewed`).
   */
  async renew(command: { subscriptionId: string; automatic: boolean } & CommandOrigin): Promise<Subscription> {
    const owner = await this.ownerOf(command.subscriptionId);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const paymentId = await this.payments.nextPaymentId();
    const ledger = this.payments.streams(owner.uuid, paymentId);
    await this.pipeline.run({
      context: command.context,
      causationId: command.causationId ?? null,
      streams: { subscription: subscriptionStreams.ref(command.subscriptionId), ...ledger },
      decide: (loaded, stamp) => {
        const renewed = renewSubscription(
          { paymentId, discountPercent, at: stamp.at, automatic: command.automatic },
          loaded.subscription.state,
        );
        const [event] = renewed;
        assert(event.type === 'SubscriptionRenewed', 'a renewal decides one SubscriptionRenewed');
        const money = this.payments.decideCharge(loaded, {
          user: { uuid: owner.uuid, email: owner.email },
          paymentId,
          subscriptionId: command.subscriptionId,
          amountMinor: event.data.priceMinor,
          discountPercent: event.data.discountPercent,
          at: stamp.at,
        });
        return { events: { subscription: renewed, wallet: money.wallet, payment: money.payment }, result: null };
      },
    });
    return this.current(command.subscriptionId);
  }

  /** The automatic renewal found the balance short: recorded, with the amount missing and the next attempt. */
  async recordRenewalFailure(
    command: { subscriptionId: string; missingMinor: number; nextAttemptAt: Date } & CommandOrigin,
  ): Promise<void> {
    await this.onSubscription(command, (state, { at }) =>
      recordRenewalFailure({ missingMinor: command.missingMinor, nextAttemptAt: command.nextAttemptAt, at }, state),
    );
  }

  /** Provisioning created the account: the first period starts now. */
  async activate(command: { subscriptionId: string } & CommandOrigin): Promise<void> {
    await this.onSubscription(command, (state, { at }) => activateSubscription({ at }, state));
  }

  /** The end date passed: EXPIRED, or CANCELED when cancelled. Nothing before the end date. */
  async end(command: { subscriptionId: string } & CommandOrigin): Promise<void> {
    await this.onSubscription(command, (state, { at }) => endSubscription({ at }, state));
  }

  async cancel(command: { subscriptionId: string } & CommandOrigin): Promise<Subscription> {
    await this.onSubscription(command, (state, { at }) => cancelSubscription({ at }, state));
    return this.current(command.subscriptionId);
  }

  async deactivateRecurrence(command: { subscriptionId: string } & CommandOrigin): Promise<void> {
    await this.onSubscription(command, (state, { at }) => deactivateRecurrence({ at }, state));
  }

  async changeLogin(command: { subscriptionId: string; login: string } & CommandOrigin): Promise<Subscription> {
    await withUniqueLogin(() => this.onSubscription(command, (state) => changeLogin({ login: command.login }, state)));
    return this.current(command.subscriptionId);
  }

  /** The new password goes to `subscription_secrets` under the version of the event that says it changed. */
  async changePassword(command: { subscriptionId: string; password: string } & CommandOrigin): Promise<void> {
    await this.pipeline.run({
      context: command.context,
      causationId: command.causationId ?? null,
      streams: { subscription: subscriptionStreams.ref(command.subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: changePassword({ password: command.password, at }, subscription.state) },
        result: subscription.version + 1,
      }),
      alongside: (tx, decision, stamp) =>
        this.keepPassword(tx, command.subscriptionId, decision.result, command.password, stamp),
    });
  }

  /**
   * The streaming service refused the account for good: the subscription ends CANCELED and, when it was paid, its
   * price goes back to the balance as a REFUND from `expense:refund`, in the same append.
   */
  async failProvisioning(command: { subscriptionId: string; reason: string } & CommandOrigin): Promise<void> {
    const owner = await this.ownerOf(command.subscriptionId);
    const row = await this.current(command.subscriptionId);
    if (row.type !== 'REGULAR') {
      await this.onSubscription(command, (state, { at }) =>
        failProvisioning({ reason: command.reason, refundPaymentId: null, at }, state),
      );
      return;
    }
    const paymentId = await this.payments.nextPaymentId();
    const ledger = this.payments.streams(owner.uuid, paymentId);
    await this.pipeline.run({
      context: command.context,
      causationId: command.causationId ?? null,
      streams: { subscription: subscriptionStreams.ref(command.subscriptionId), ...ledger },
      decide: (loaded, { at }) => {
        const failed = failProvisioning(
          { reason: command.reason, refundPaymentId: paymentId, at },
          loaded.subscription.state,
        );
        const state = loaded.subscription.state;
        if (failed.length === 0 || !state.exists) return { events: {}, result: null };
        const money = this.payments.decideRefund(loaded, {
          user: { uuid: owner.uuid, email: owner.email },
          paymentId,
          subscriptionId: command.subscriptionId,
          amountMinor: state.priceMinor,
          discountPercent: 0,
          at,
        });
        return { events: { subscription: failed, wallet: money.wallet, payment: money.payment }, result: null };
      },
    });
  }

  /**
   * Opens a crypto deposit that buys the package once the money arrives (docs/adr/0030-deposit-and-buy.md). The same
   * refusals as buying with the balance come first, so nobody pays for what cannot be bought now: a missing (404) or
   * INACTIVE (409) package, a login already held (409). The deposit asks the price less the buyer's referral discount,
   * plus any debt on the balance (`depositNeededMinor`, ADR 0058), raised to the cashier's minimum, and records that
   * price, the package and the login with it; the password goes to `subscription_secrets` under the id the
   * subscription will take, in the same transaction.
   */
  async depositAndBuy(
    command: { actor: Actor; planId: string; login: string; password: string; method: CryptoMethod } & CommandOrigin,
  ): Promise<CryptoDepositResponse> {
    const { actor, planId, login, password, method } = command;
    const buyer = await this.existingUser(actor.userUuid);
    const plan = planForSale(await planStreams.peek(this.store, planId));
    if (await this.subscriptions.isLoginHeld(login))
      throw new ApiError('error.login.already.exists', { field: 'login' });
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const priceMinor = discountedPriceMinor(plan.priceMinor, discountPercent);
    const subscriptionId = randomUUID();
    return this.depositPurchases.open({
      actor,
      amountMinor: this.depositPurchases.amountFor(await this.depositNeeded(buyer.uuid, priceMinor)),
      method,
      intent: buyIntent(plan, { subscriptionId, login, priceMinor, discountPercent }),
      context: command.context,
      alongside: (tx, _paymentId, stamp) => this.keepPassword(tx, subscriptionId, 1, password, stamp),
    });
  }

  /**
   * Opens a crypto deposit that renews the subscription once the money arrives. The renewal's own rules are asked
   * first, at this instant (already paid a full period ahead, ended, a trial or PENDING: 409), and the quote is what
   * renewing now would cost: the price as bought less the owner's referral discount. The deposit asks that plus any
   * debt on the balance (ADR 0058).
   */
  async depositAndRenew(
    command: { actor: Actor; subscriptionId: string; method: CryptoMethod } & CommandOrigin,
  ): Promise<CryptoDepositResponse> {
    const { actor, subscriptionId, method } = command;
    const subscription = await this.current(subscriptionId);
    const owner = await this.existingUser(subscription.userUuid);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const state = await subscriptionStreams.peek(this.store, subscriptionId);
    const [quote] = renewSubscription({ paymentId: 0, discountPercent, at: this.clock.now(), automatic: false }, state);
    assert(quote.type === 'SubscriptionRenewed' && state.exists && state.planId !== null, 'a renewal of a package');
    return this.depositPurchases.open({
      actor,
      amountMinor: this.depositPurchases.amountFor(await this.depositNeeded(owner.uuid, quote.data.priceMinor)),
      method,
      intent: {
        kind: 'RENEW',
        paymentPlanId: state.planId,
        planName: subscription.paymentPlan?.planName ?? '',
        subscriptionId,
        login: null,
        priceMinor: quote.data.priceMinor,
        discountPercent,
      },
      context: command.context,
    });
  }

  /**
   * Opens a card checkout that buys the package once the provider reports the money (docs/adr/0029-card-checkout.md).
   * The same refusals as buying with the balance come first, plus the card's own: no provider configured (503
   * `error.card.provider.unavailable`) and a package staff keep off card sale (409
   * `error.package.cannot.be.bought.via.card.provider`). The checkout charges the price less the buyer's referral
   * discount, as a purchase from the balance would, plus any debt on the balance (ADR 0058); the password waits in
   * `subscription_secrets` under the id the subscription will take.
   */
  async cardCheckout(
    command: { actor: Actor; planId: string; login: string; password: string } & CommandOrigin,
  ): Promise<CardCheckoutResponse> {
    const { actor, planId, login, password } = command;
    if (!this.cards.available) throw new ApiError('error.card.provider.unavailable');
    const buyer = await this.existingUser(actor.userUuid);
    const plan = planForSale(await planStreams.peek(this.store, planId));
    if (!plan.cardPaymentAllowed) throw new ApiError('error.package.cannot.be.bought.via.card.provider');
    if (await this.subscriptions.isLoginHeld(login))
      throw new ApiError('error.login.already.exists', { field: 'login' });
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const priceMinor = discountedPriceMinor(plan.priceMinor, discountPercent);
    const subscriptionId = randomUUID();
    return this.cards.open({
      actor,
      amountMinor: await this.depositNeeded(buyer.uuid, priceMinor),
      intent: buyIntent(plan, { subscriptionId, login, priceMinor, discountPercent }),
      context: command.context,
      alongside: (tx, _paymentId, stamp) => this.keepPassword(tx, subscriptionId, 1, password, stamp),
    });
  }

  /**
   * Applies what the card provider says about a checkout (docs/adr/0029-card-checkout.md): the payment's report and,
   * the first time the checkout is seen paid, the credit from `world:stripe` together with the purchase it pays for
   * (or the purchase's FAILED, when a rule refuses it now), all in one append under the deposit's, the wallet's, the
   * package's and the subscription's locks. A repeated or stale report decides nothing, so five deliveries in any
   * order credit and buy once.
   */
  async settleCardPayment(
    command: { deposit: CardDepositRow; report: CardReport } & CommandOrigin,
  ): Promise<CardSettlement> {
    try {
      return await withUniqueLogin(() => this.settleCardPaymentOnce(command, null));
    } catch (error) {
      // A login taken since the checkout opened is only known when the append hits the unique index: the money is
      // then credited with the purchase's FAILED instead.
      if (!(error instanceof ApiError) || error.code !== 'error.login.already.exists') throw error;
      return this.settleCardPaymentOnce(command, 'error.login.already.exists');
    }
  }

  private async settleCardPaymentOnce(
    command: { deposit: CardDepositRow; report: CardReport } & CommandOrigin,
    refusal: ErrorCode | null,
  ): Promise<CardSettlement> {
    const { deposit, report } = command;
    const view = await this.depositPurchases.find(deposit.paymentId);
    assert(view !== null && view.purchase.kind === 'BUY', `card deposit ${deposit.paymentId} buys a package`);
    const purchase = view.purchase;
    const buyer = await this.existingUser(deposit.userUuid);
    const password =
      purchase.status === 'WAITING' ? (await this.secrets.newest(purchase.subscriptionId))?.password : undefined;
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const paymentId = await this.payments.nextPaymentId();
    // The role is identity's, read before the locks, as for every deposit's bonus.
    const bonusPaymentId = view.amountReceivedMinor > 0 ? null : await this.cards.bonusPaymentIdFor(buyer.role);
    const ledger = this.payments.streams(buyer.uuid, paymentId);
    const cardStreams = this.cards.streams(deposit);
    const streams = {
      plan: planStreams.read(purchase.paymentPlanId),
      subscription: subscriptionStreams.ref(purchase.subscriptionId),
      deposit: cardStreams.deposit,
      wallet: cardStreams.wallet,
      payment: ledger.payment,
    };
    interface Loaded {
      plan: LoadedStream<PlanState>;
      subscription: LoadedStream<SubscriptionState>;
      deposit: LoadedDeposit;
      wallet: LoadedSubscriptionPayment['wallet'];
      payment: LoadedSubscriptionPayment['payment'];
    }
    const decide = (loaded: Loaded, bonus: LoadedDeposit | null, stamp: CommandStamp) => {
      const card = this.cards.decideReport(
        loaded.deposit,
        loaded.wallet,
        report,
        stamp.at,
        bonus === null || bonusPaymentId === null ? null : { role: buyer.role, bonusPaymentId, stream: bonus },
      );
      const settlement: CardSettlement = {
        paymentId: deposit.paymentId,
        status: card.depositAfter?.status ?? 'PENDING',
        creditedMinor: card.creditedMinor,
        purchase: card.depositAfter?.purchase?.status ?? null,
      };
      const reported = { deposit: card.payment, wallet: card.wallet, bonus: card.bonus };
      const afterDeposit = { ...loaded.deposit, state: card.depositAfter };
      if (card.creditedMinor === 0 || this.depositPurchases.waiting(afterDeposit) === null)
        return { events: reported, result: settlement };
      assert(password !== undefined, `the password of card deposit ${deposit.paymentId}'s purchase waits for it`);
      const afterWallet = { ...loaded.wallet, state: card.walletAfter };
      const bought = this.orFailed(afterDeposit, stamp, () => {
        if (refusal !== null) throw new DomainError(refusal);
        return this.decideDepositBuy(
          { plan: loaded.plan, subscription: loaded.subscription, deposit: afterDeposit },
          { wallet: afterWallet, payment: loaded.payment },
          { purchase, buyer, discountPercent, paymentId, password, at: stamp.at },
        );
      });
      const events = bought.events as Partial<ReturnType<SubscriptionCommands['decideDepositBuy']>>;
      return {
        events: {
          deposit: [...card.payment, ...(events.deposit ?? [])],
          wallet: [...card.wallet, ...(events.wallet ?? [])],
          payment: events.payment ?? [],
          subscription: events.subscription ?? [],
          bonus: card.bonus,
        },
        result: { ...settlement, purchase: bought.result },
      };
    };
    // A purchase that will not happen keeps no password: it is forgotten with the FAILED it explains, or when the
    // payment is held for staff because the provider reported other money than was asked (ADR 0058).
    const alongside = async (tx: StreamTransaction, decision: { result: CardSettlement }) => {
      const ends = decision.result.purchase === 'FAILED' || decision.result.status === 'REVIEW';
      if (ends && purchase.status === 'WAITING') await this.secrets.forgetAll(purchase.subscriptionId, tx.manager);
    };
    const origin = { context: command.context, causationId: command.causationId ?? null };
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
      streams: { ...streams, bonus: this.cards.bonusStream(bonusPaymentId) },
      decide: (loaded, stamp) => decide(loaded, loaded.bonus, stamp),
      alongside,
    });
    return result;
  }

  /**
   * What the `deposit-purchases` processor runs once a deposit that pays for a purchase was credited: the purchase
   * or renewal from the balance, by the same rules as the routes, with the deposit's payment stream locked beside
   * the subscription's. DONE is recorded on the deposit in the same append as the purchase; a refusal records FAILED
   * with its code and nothing else (the money stays on the balance). A purchase no longer WAITING does nothing, so the
   * deposit's payment id keys it: it happens once however often it is asked. Returns what was recorded, or null.
   */
  async completeDepositPurchase(
    command: { depositPaymentId: number } & CommandOrigin,
  ): Promise<DepositPurchaseStatus | null> {
    const deposit = await this.depositPurchases.find(command.depositPaymentId);
    if (deposit === null || deposit.purchase.status !== 'WAITING') return null;
    try {
      return deposit.purchase.kind === 'BUY'
        ? await withUniqueLogin(() => this.buyForDeposit(deposit, command))
        : await this.renewForDeposit(deposit, command);
    } catch (error) {
      // A login taken since the deposit opened is only known when the append hits the unique index.
      if (!(error instanceof ApiError) || error.code !== 'error.login.already.exists') throw error;
      return this.failDepositPurchase(deposit, 'error.login.already.exists', command);
    }
  }

  private async buyForDeposit(
    deposit: DepositPurchaseView,
    origin: CommandOrigin,
  ): Promise<DepositPurchaseStatus | null> {
    const { purchase } = deposit;
    const buyer = await this.existingUser(deposit.userUuid);
    const password = (await this.secrets.newest(purchase.subscriptionId))?.password;
    assert(password !== undefined, `the password of deposit ${deposit.paymentId}'s purchase waits for it`);
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const paymentId = await this.payments.nextPaymentId();
    const subscriptionId = purchase.subscriptionId;
    const { result } = await this.pipeline.run({
      context: origin.context,
      causationId: origin.causationId ?? null,
      streams: {
        plan: planStreams.read(purchase.paymentPlanId),
        subscription: subscriptionStreams.ref(subscriptionId),
        deposit: this.depositPurchases.stream(deposit.paymentId),
        ...this.payments.streams(buyer.uuid, paymentId),
      },
      decide: (loaded, stamp) => {
        if (this.depositPurchases.waiting(loaded.deposit) === null) return { events: {}, result: null };
        return this.orFailed(loaded.deposit, stamp, () =>
          this.decideDepositBuy(
            { plan: loaded.plan, subscription: loaded.subscription, deposit: loaded.deposit },
            { wallet: loaded.wallet, payment: loaded.payment },
            { purchase, buyer, discountPercent, paymentId, password, at: stamp.at },
          ),
        );
      },
      // A purchase that will not happen keeps no password: it is forgotten with the FAILED it explains.
      alongside: async (tx, decision) => {
        if (decision.result === 'FAILED') await this.secrets.forgetAll(subscriptionId, tx.manager);
      },
    });
    return result;
  }

  /**
   * The purchase a deposit pays for, decided under its locks by the rules of a purchase from the balance: the
   * package for sale, the login free, a price no higher than quoted (`error.plan.no.longer.available`), the balance
   * enough; DONE on the deposit with the subscription, the charge and the SUBSCRIPTION_PAYMENT. Throws the refusal.
   */
  private decideDepositBuy(
    loaded: {
      plan: LoadedStream<PlanState>;
      subscription: LoadedStream<SubscriptionState>;
      deposit: LoadedDeposit;
    },
    ledger: LoadedSubscriptionPayment,
    input: {
      purchase: DepositPurchaseView['purchase'];
      buyer: UserView;
      discountPercent: number;
      paymentId: number;
      password: string;
      at: Date;
    },
  ): {
    subscription: SubscriptionEvent[];
    wallet: ReturnType<SubscriptionPayments['decideCharge']>['wallet'];
    payment: ReturnType<SubscriptionPayments['decideCharge']>['payment'];
    deposit: ReturnType<DepositPurchases['decideCompleted']>;
  } {
    const { purchase, buyer, discountPercent, paymentId, password, at } = input;
    assert(purchase.login !== null, 'a purchase names its login');
    const { data, ...events } = this.decidePurchase(loaded, ledger, {
      subscriptionId: purchase.subscriptionId,
      buyer,
      discountPercent,
      paymentId,
      login: purchase.login,
      password,
      quotedPriceMinor: purchase.priceMinor,
      at,
    });
    const done = this.depositPurchases.decideCompleted(loaded.deposit, {
      subscriptionPaymentId: paymentId,
      chargedMinor: data.priceMinor,
      at,
    });
    return { ...events, deposit: done };
  }

  /**
   * A package bought from the balance, decided under the plan's, the subscription's and the wallet's locks: the
   * package for sale, the subscription with the referral discount, then the charge and its SUBSCRIPTION_PAYMENT. A
   * purchase quoted earlier (a deposit that pays for it) is refused when the price rose since
   * (`error.plan.no.longer.available`), before the balance is looked at. Throws the refusal.
   */
  private decidePurchase(
    loaded: { plan: LoadedStream<PlanState>; subscription: LoadedStream<SubscriptionState> },
    ledger: LoadedSubscriptionPayment,
    input: {
      subscriptionId: string;
      buyer: UserView;
      discountPercent: number;
      paymentId: number;
      login: string;
      password: string;
      /** The price the buyer was shown when the purchase was asked for earlier; null when it is decided now. */
      quotedPriceMinor: number | null;
      at: Date;
    },
  ): {
    data: SubscriptionPurchasedData;
    subscription: SubscriptionEvent[];
    wallet: ReturnType<SubscriptionPayments['decideCharge']>['wallet'];
    payment: ReturnType<SubscriptionPayments['decideCharge']>['payment'];
  } {
    const { subscriptionId, buyer, discountPercent, paymentId, login, password, quotedPriceMinor, at } = input;
    const purchased = purchaseSubscription(
      {
        subscriptionId,
        userUuid: buyer.uuid,
        userEmail: buyer.email,
        plan: purchasedPlan(planForSale(loaded.plan.state)),
        discountPercent,
        paymentId,
        login,
        password,
        at,
      },
      loaded.subscription.state,
    );
    const data = purchaseData(purchased);
    if (quotedPriceMinor !== null && data.priceMinor > quotedPriceMinor)
      throw new DomainError('error.plan.no.longer.available');
    const money = this.payments.decideCharge(ledger, {
      user: { uuid: buyer.uuid, email: buyer.email },
      paymentId,
      subscriptionId,
      amountMinor: data.priceMinor,
      discountPercent: data.discountPercent,
      at,
    });
    return { data, subscription: purchased, wallet: money.wallet, payment: money.payment };
  }

  private async renewForDeposit(
    deposit: DepositPurchaseView,
    origin: CommandOrigin,
  ): Promise<DepositPurchaseStatus | null> {
    const { purchase } = deposit;
    const owner = await this.existingUser(deposit.userUuid);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const paymentId = await this.payments.nextPaymentId();
    const { result } = await this.pipeline.run({
      context: origin.context,
      causationId: origin.causationId ?? null,
      streams: {
        subscription: subscriptionStreams.ref(purchase.subscriptionId),
        deposit: this.depositPurchases.stream(deposit.paymentId),
        ...this.payments.streams(owner.uuid, paymentId),
      },
      decide: (loaded, stamp) => {
        if (this.depositPurchases.waiting(loaded.deposit) === null) return { events: {}, result: null };
        return this.orFailed(loaded.deposit, stamp, () => {
          const renewed = renewSubscription(
            { paymentId, discountPercent, at: stamp.at, automatic: false },
            loaded.subscription.state,
          );
          const [event] = renewed;
          assert(event.type === 'SubscriptionRenewed', 'a renewal decides one SubscriptionRenewed');
          if (event.data.priceMinor > purchase.priceMinor) throw new DomainError('error.plan.no.longer.available');
          const money = this.payments.decideCharge(loaded, {
            user: { uuid: owner.uuid, email: owner.email },
            paymentId,
            subscriptionId: purchase.subscriptionId,
            amountMinor: event.data.priceMinor,
            discountPercent: event.data.discountPercent,
            at: stamp.at,
          });
          const done = this.depositPurchases.decideCompleted(loaded.deposit, {
            subscriptionPaymentId: paymentId,
            chargedMinor: event.data.priceMinor,
            at: stamp.at,
          });
          return { subscription: renewed, wallet: money.wallet, payment: money.payment, deposit: done };
        });
      },
    });
    return result;
  }

  /**
   * Decides a deposit's purchase: DONE with everything `decide` returns, or, when a rule refuses it, FAILED on the
   * deposit alone with the refusal's code (a package withdrawn or deleted reads as no longer available).
   */
  private orFailed<Events extends { deposit: unknown[] }>(
    deposit: LoadedDeposit,
    stamp: CommandStamp,
    decide: () => Events,
  ): { events: Events | { deposit: ReturnType<DepositPurchases['decideFailed']> }; result: DepositPurchaseStatus } {
    try {
      return { events: decide(), result: 'DONE' };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return {
        events: {
          deposit: this.depositPurchases.decideFailed(deposit, { errorCode: failureCodeOf(error), at: stamp.at }),
        },
        result: 'FAILED',
      };
    }
  }

  /** FAILED on the deposit alone, when the purchase's own append could not happen; its password is forgotten. */
  private async failDepositPurchase(
    deposit: DepositPurchaseView,
    errorCode: ErrorCode,
    origin: CommandOrigin,
  ): Promise<DepositPurchaseStatus | null> {
    const { result } = await this.pipeline.run({
      context: origin.context,
      causationId: origin.causationId ?? null,
      streams: { deposit: this.depositPurchases.stream(deposit.paymentId) },
      decide: (loaded, { at }) => {
        const failed = this.depositPurchases.decideFailed(loaded.deposit, { errorCode, at });
        return { events: { deposit: failed }, result: failed.length > 0 ? ('FAILED' as const) : null };
      },
      alongside: async (tx, decision) => {
        if (decision.result === 'FAILED' && deposit.purchase.kind === 'BUY')
          await this.secrets.forgetAll(deposit.purchase.subscriptionId, tx.manager);
      },
    });
    return result;
  }

  /**
   * What a deposit must bring for a purchase of `priceMinor` to be paid from the balance once it arrives: the price,
   * plus the debt of a balance a confirmed staff override left negative, which the credit pays first.
   */
  private async depositNeeded(userUuid: string, priceMinor: number): Promise<number> {
    const balanceMinor = (await this.balances.balancesOf([userUuid])).get(userUuid) ?? 0;
    return depositNeededMinor(balanceMinor, priceMinor);
  }

  /** A command on the subscription's stream alone. */
  private async onSubscription(
    command: { subscriptionId: string } & CommandOrigin,
    decide: (state: SubscriptionState, stamp: CommandStamp) => SubscriptionEvent[],
  ): Promise<void> {
    await this.pipeline.run({
      context: command.context,
      causationId: command.causationId ?? null,
      streams: { subscription: subscriptionStreams.ref(command.subscriptionId) },
      decide: ({ subscription }, stamp) => ({
        events: { subscription: decide(subscription.state, stamp) },
        result: null,
      }),
    });
  }

  private async keepPassword(
    tx: StreamTransaction,
    subscriptionId: string,
    version: number,
    password: string,
    stamp: CommandStamp,
  ): Promise<void> {
    await this.secrets.write(tx.manager, { subscriptionId, version, password, at: stamp.at });
  }

  private async current(subscriptionId: string): Promise<Subscription> {
    const subscription = await this.subscriptions.find(subscriptionId);
    if (!subscription) throw new ApiError('error.subscription.not.found');
    return subscription;
  }

  /** The owner of a subscription (who never changes), as identity knows them now. */
  private async ownerOf(subscriptionId: string): Promise<UserView> {
    return this.existingUser((await this.current(subscriptionId)).userUuid);
  }

  private async existingUser(userUuid: string): Promise<UserView> {
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    return user;
  }
}

/** The code a failed deposit purchase records: a package withdrawn or deleted meanwhile is no longer available. */
function failureCodeOf(error: DomainError): ErrorCode {
  if (error.code === 'error.payment.plan.not.active' || error.code === 'error.payment.plan.not.found')
    return 'error.plan.no.longer.available';
  return error.code;
}

function purchaseData(events: SubscriptionEvent[]): SubscriptionPurchasedData {
  const [event] = events;
  assert(event?.type === 'SubscriptionPurchased', 'a purchase decides one SubscriptionPurchased');
  return event.data;
}

/** The package as a purchase records it: its terms at the moment it is bought. */
function purchasedPlan(plan: ReturnType<typeof planForSale>) {
  return {
    planId: plan.planId,
    planName: plan.name,
    durationInMonths: plan.durationInMonths,
    priceMinor: plan.priceMinor,
    currency: plan.currency,
    isRecurrent: plan.isRecurrent,
  };
}

/** What a deposit made to buy a package (by crypto or by card) will buy, once its money arrives. */
function buyIntent(
  plan: ReturnType<typeof planForSale>,
  purchase: { subscriptionId: string; login: string; priceMinor: number; discountPercent: number },
) {
  return { kind: 'BUY' as const, paymentPlanId: plan.planId, planName: plan.name, ...purchase };
}
