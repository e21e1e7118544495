import { DataSource } from 'typeorm';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CryptoDepositResponse,
  type CryptoMethod,
  depositNeededMinor,
  type DepositPurchaseRequestedData,
  type DepositPurchaseStatus,
  discountedPriceMinor,
  type ErrorCode,
  minorToAmount,
  type PromoCodeEvent,
} from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert } from '../../../kernel';
import type { Actor, RequestContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { CommandPipeline, type LoadedStream } from '../../../platform/commands';
import { EventStore } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { planForSale, type PlanState, planStreams } from '../../catalog';
import { UserBalances, type UserView } from '../../identity';
import {
  CryptoDepositInvoices,
  decideWalletCharge,
  depositAmountMinor,
  depositFacts,
  type LoadedPaymentStream,
  type LoadedWalletStream,
  ledgerStreams,
  openCryptoDeposit,
  type PaymentState,
} from '../../ledger';
import {
  depositPurchaseDecider,
  type DepositPurchaseEvent,
  type DepositPurchaseState,
} from '../domain/deposit-purchase.decider';
import {
  decideDepositPurchase,
  decidePurchase,
  decideRenewal,
  type DepositPurchaseDecision,
  quoteRenewal,
  type SubscriptionCharge,
} from '../domain/subscription-purchases';
import type { SubscriptionState } from '../domain/subscription.state';
import { LoginReservation, withUniqueLogin } from '../infrastructure/logins';
import { ReferralDiscounts } from './referral-discounts';
import { SubscriptionSecrets } from '../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../infrastructure/subscription-streams';
import { depositPurchaseStreams } from '../infrastructure/deposit-purchase-streams';
import { DepositPurchaseReader, type DepositPurchaseView } from './deposit-purchase-reader';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';
import { purchasedPlan } from './purchased-plan';
import { SubscriptionParties } from './subscription-parties';
import { PromoCodes, type PromoCodeRequest, type PromoCodeStreams } from './promo-codes';
import {
  type PromoCodeState,
  quotePromoCode,
  releasePromoCodeReservation,
  reservePromoCode,
  settlePromoCodeReservation,
} from '../domain/promo-code.decider';

/** What a deposit made to buy or renew will buy once its money arrives; the ids and the instant come from the open. */
export type DepositPurchaseIntent = Omit<DepositPurchaseRequestedData, 'paymentId' | 'userUuid' | 'requestedAt'>;

/** A purchase's stream under its lock: null for a deposit that pays for none. */
type LoadedPurchase = LoadedStream<DepositPurchaseState | null>;

/** The ledger streams a charge from the wallet appends to, under their locks: the wallet and the new payment. */
export interface LoadedWalletPayment {
  wallet: LoadedWalletStream;
  payment: LoadedPaymentStream;
}

/**
 * The code a deposit or checkout opens with, when it beat the referral discount at the quote: its use is held for
 * the deposit (`PromoCodeReserved`) in the append that opens it, until `lifeMinutes` have passed.
 */
export interface OpeningPromo {
  request: PromoCodeRequest;
  planId: string;
  listPriceMinor: number;
  referralPercent: number;
}

/** A deposit opened with what it pays for: its payment's opening (the ledger's) and the purchase's request. */
interface DepositOpening<Result> {
  context: RequestContext;
  paymentId: number;
  userUuid: string;
  intent: DepositPurchaseIntent;
  byCard: boolean;
  deposit: (at: Date, state: PaymentState | null) => ReturnType<typeof openCryptoDeposit>;
  /** The password a purchase's subscription will take; null for a renewal. */
  password: string | null;
  /** The code whose use the deposit holds; null without one (or when the referral discount is larger). */
  promo: OpeningPromo | null;
  result: Result;
}

/** A code held by a deposit, as its settlement reads it before the locks: the code's stream is named among them. */
interface SettlingPromo {
  code: string;
  isNewClient: boolean;
}

/** Who asks, and the event that caused a processor's command (null for a request). */
export interface CommandOrigin {
  context: RequestContext;
  causationId: string | null;
}

/**
 * Deposit-and-buy and deposit-and-renew (docs/adr/0030-deposit-and-buy.md), the flow in two steps: a deposit opened
 * now with the purchase it pays for and the price quoted for it, and, once the cashier credited it, the purchase or
 * renewal from the balance by the rules of `domain/subscription-purchases.ts`, with the deposit's DONE or FAILED in
 * the same append. The card checkout (`CardCheckouts`) buys by the same decision.
 */
@Injectable()
export class DepositPurchaseFlow {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly invoices: CryptoDepositInvoices,
    private readonly reader: DepositPurchaseReader,
    private readonly parties: SubscriptionParties,
    private readonly balances: UserBalances,
    private readonly subscriptions: SubscriptionReader,
    private readonly secrets: SubscriptionSecrets,
    private readonly discounts: ReferralDiscounts,
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly promoCodes: PromoCodes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Opens a crypto deposit that buys the package once the money arrives. The same refusals as buying with the
   * balance come first, so nobody pays for what cannot be bought now: a missing (404) or INACTIVE (409) package, a
   * login already held (409). The deposit asks the price less the buyer's referral discount, plus any debt on the
   * balance (`depositNeededMinor`, ADR 0058), raised to the cashier's minimum, and records that price, the package and
   * the login with it; the password goes to `subscription_secrets` under the id the subscription will take, in the
   * same transaction.
   */
  async openPurchase(command: {
    actor: Actor;
    planId: string;
    login: string;
    password: string;
    method: CryptoMethod;
    promoCode?: string;
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, planId, login, password, method, promoCode, context } = command;
    const { intent, depositNeededMinor, promo } = await this.quotePurchase(actor, planId, login, undefined, promoCode);
    return this.openCryptoDeposit({
      actor,
      amountMinor: depositAmountMinor(depositNeededMinor, this.invoices.minimumMinor()),
      method,
      intent,
      password,
      promo,
      context,
    });
  }

  /**
   * Records a deposit opened at its provider with the purchase it pays for, in one command: the deposit's payment
   * (the ledger's decision) and `DepositPurchaseRequested` on the purchase's own stream, and the purchase's password
   * in `subscription_secrets` under the id the subscription will take, in the same transaction.
   */
  async recordOpened<Result>(opening: DepositOpening<Result>): Promise<Result> {
    const { context, paymentId, userUuid, intent, byCard, password, promo } = opening;
    const lifeMinutes = byCard ? this.config.cardPendingTimeoutMinutes : this.config.cashierPendingTimeoutMinutes;
    const { result } = await this.pipeline.run({
      context,
      streams: {
        deposit: ledgerStreams.payment(paymentId),
        purchase: depositPurchaseStreams.ref(paymentId),
        ...this.promoCodes.streams(promo?.request ?? null),
      },
      decide: (loaded, { at }) => ({
        events: {
          deposit: opening.deposit(at, loaded.deposit.state),
          purchase: depositPurchaseDecider.decide(
            {
              type: 'RequestDepositPurchase',
              purchase: { ...intent, paymentId, userUuid, requestedAt: at.toISOString() },
              byCard,
            },
            loaded.purchase.state,
          ),
          ...(promo === null
            ? {}
            : { promo: this.reserve(promo, loaded.promo.state, { paymentId, userUuid, intent, at, lifeMinutes }) }),
        },
        result: opening.result,
      }),
      alongside: async (tx, _decision, { at }) => {
        if (password !== null)
          await this.secrets.write(tx.manager, { subscriptionId: intent.subscriptionId, version: 1, password, at });
      },
    });
    return result;
  }

  /**
   * The hold on the code's use, decided under its lock: the code's limits are asked again with every use and live hold
   * counted, so of many deposits opened at once on its last uses only as many hold one as there are uses (the others
   * are refused with the code's reason). A price above the one the deposit asks (the referral discount grew larger
   * than the code meanwhile is the only way) is refused too, since the deposit would not pay for it.
   */
  private reserve(
    promo: OpeningPromo,
    state: PromoCodeState,
    facts: { paymentId: number; userUuid: string; intent: DepositPurchaseIntent; at: Date; lifeMinutes: number },
  ): PromoCodeEvent[] {
    const { price, events } = reservePromoCode(
      {
        userUuid: facts.userUuid,
        use: promo.request.use,
        planId: promo.planId,
        listPriceMinor: promo.listPriceMinor,
        isNewClient: promo.request.isNewClient,
        referralPercent: promo.referralPercent,
        depositPaymentId: facts.paymentId,
        subscriptionId: facts.intent.subscriptionId,
        expiresAt: new Date(facts.at.getTime() + facts.lifeMinutes * 60_000),
        at: facts.at,
      },
      state,
    );
    if (price.priceMinor > facts.intent.priceMinor) throw new ApiError('error.plan.no.longer.available');
    return events;
  }

  /**
   * A code's quote before the deposit opens, without a lock (nothing is held yet: the hold is decided with the
   * deposit's opening): the refusal a client can act on comes now, before anyone is asked for money. Null without a
   * code; a code that does not beat the referral discount comes back with `promo` null, so nothing is held.
   */
  private async quoteCode(
    raw: string | undefined,
    facts: { use: 'PURCHASE' | 'RENEWAL'; userUuid: string; planId: string; listPriceMinor: number; referral: number },
  ): Promise<{ priceMinor: number; discountPercent: number; promo: OpeningPromo | null } | null> {
    const request = await this.promoCodes.request(raw, facts.use, facts.userUuid);
    if (request === null) return null;
    const price = quotePromoCode(
      {
        userUuid: facts.userUuid,
        use: facts.use,
        planId: facts.planId,
        listPriceMinor: facts.listPriceMinor,
        isNewClient: request.isNewClient,
        referralPercent: facts.referral,
        at: this.clock.now(),
      },
      await this.promoCodes.stateOf(request.code),
    );
    const promo =
      price.applied === 'PROMO_CODE'
        ? { request, planId: facts.planId, listPriceMinor: facts.listPriceMinor, referralPercent: facts.referral }
        : null;
    return { priceMinor: price.priceMinor, discountPercent: price.discountPercent, promo };
  }

  private async openCryptoDeposit(command: {
    actor: Actor;
    amountMinor: number;
    method: CryptoMethod;
    intent: DepositPurchaseIntent;
    password: string | null;
    promo: OpeningPromo | null;
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, amountMinor, method, intent, password, promo, context } = command;
    const invoice = await this.invoices.open({ owner: actor, amountMinor, method });
    return this.recordOpened({
      context,
      paymentId: invoice.paymentId,
      userUuid: actor.userUuid,
      intent,
      byCard: false,
      deposit: (at, state) => openCryptoDeposit(invoice, at, state),
      password,
      promo,
      result: { paymentId: invoice.paymentId, invoiceUrl: invoice.invoiceUrl },
    });
  }

  /**
   * What a purchase to be paid later is refused now or quoted at: the buyer, the package for sale (and `forSale`'s
   * own rule, asked right after), the login not held, the price less the buyer's referral discount, and what a
   * deposit must bring for it. The id the subscription will take is chosen here.
   */
  async quotePurchase(
    actor: Actor,
    planId: string,
    login: string,
    forSale: (plan: ReturnType<typeof planForSale>) => void = () => undefined,
    promoCode?: string,
  ): Promise<{ intent: ReturnType<typeof buyIntent>; depositNeededMinor: number; promo: OpeningPromo | null }> {
    const buyer = await this.parties.existingUser(actor.userUuid);
    const plan = planForSale(await planStreams.currentState(this.store, planId));
    forSale(plan);
    if (await this.subscriptions.isLoginHeld(login))
      throw new ApiError('error.login.already.exists', { field: 'login' });
    const referral = await this.discounts.percentFor(buyer.profileId);
    // With a code, the larger of it and the referral discount is what the deposit asks and the purchase pays.
    const code = await this.quoteCode(promoCode, {
      use: 'PURCHASE',
      userUuid: buyer.uuid,
      planId: plan.planId,
      listPriceMinor: plan.priceMinor,
      referral,
    });
    const priceMinor = code?.priceMinor ?? discountedPriceMinor(plan.priceMinor, referral);
    const discountPercent = code?.discountPercent ?? referral;
    const intent = buyIntent(plan, { subscriptionId: randomUUID(), login, priceMinor, discountPercent });
    return {
      intent,
      depositNeededMinor: await this.depositNeededMinor(buyer.uuid, priceMinor),
      promo: code?.promo ?? null,
    };
  }

  /**
   * Opens a crypto deposit that renews the subscription once the money arrives. The renewal's own rules are asked
   * first, at this instant (already paid a full period ahead, ended, a trial or PENDING: 409), and the quote is what
   * renewing now would cost (`quoteRenewal`). The deposit asks that plus any debt on the balance (ADR 0058). An amount
   * the client was shown that differs (a discount or a balance that changed since) is refused before the cashier is
   * asked: 409 `error.renewal.amount.changed` with the amount needed now.
   */
  async openRenewal(command: {
    actor: Actor;
    subscriptionId: string;
    method: CryptoMethod;
    shownAmountMinor: number | null;
    promoCode?: string;
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, subscriptionId, method, shownAmountMinor, context } = command;
    const subscription = await this.parties.subscription(subscriptionId);
    const owner = await this.parties.existingUser(subscription.userUuid);
    const referral = await this.discounts.percentFor(owner.profileId);
    const state = await subscriptionStreams.currentState(this.store, subscriptionId);
    const renewal = quoteRenewal({ discountPercent: referral, at: this.clock.now() }, state);
    const code = await this.quoteCode(command.promoCode, {
      use: 'RENEWAL',
      userUuid: owner.uuid,
      planId: renewal.planId,
      listPriceMinor: renewal.listPriceMinor,
      referral,
    });
    const quote = { ...renewal, priceMinor: code?.priceMinor ?? renewal.priceMinor };
    const discountPercent = code?.discountPercent ?? referral;
    const neededMinor = await this.depositNeededMinor(owner.uuid, quote.priceMinor);
    if (shownAmountMinor !== null && shownAmountMinor !== neededMinor)
      throw new ApiError('error.renewal.amount.changed', { amount: minorToAmount(neededMinor) });
    return this.openCryptoDeposit({
      actor,
      amountMinor: depositAmountMinor(neededMinor, this.invoices.minimumMinor()),
      method,
      password: null,
      promo: code?.promo ?? null,
      intent: {
        kind: 'RENEW',
        paymentPlanId: quote.planId,
        planName: subscription.paymentPlan?.planName ?? '',
        subscriptionId,
        login: null,
        priceMinor: quote.priceMinor,
        discountPercent,
      },
      context,
    });
  }

  /**
   * Runs the purchase or renewal a credited deposit pays for, with the deposit's payment stream locked beside the
   * subscription's. A purchase no longer WAITING does nothing, so the deposit's payment id keys it: it happens once
   * however often it is asked. Returns what was recorded, or null.
   */
  async complete(depositPaymentId: number, origin: CommandOrigin): Promise<DepositPurchaseStatus | null> {
    const deposit = await this.reader.find(depositPaymentId);
    if (deposit === null || deposit.purchase.status !== 'WAITING') return null;
    try {
      return deposit.purchase.kind === 'BUY'
        ? await withUniqueLogin(() => this.buyFor(deposit, origin))
        : await this.renewFor(deposit, origin);
    } catch (error) {
      // A login taken since the deposit opened is only known when the append hits the unique index.
      if (!(error instanceof ApiError) || error.code !== 'error.login.already.exists') throw error;
      return this.fail(deposit, 'error.login.already.exists', origin);
    }
  }

  /**
   * The purchase a deposit pays for, decided under its locks by the rules of a purchase from the balance, against the
   * price quoted when the deposit opened and the login's reservation (ADR 0071); DONE on the deposit with the
   * subscription, the charge and the SUBSCRIPTION_PAYMENT. Throws the refusal, for `decideDepositPurchase` to turn
   * into FAILED.
   */
  decideBuy(
    loaded: { plan: LoadedStream<PlanState>; subscription: LoadedStream<SubscriptionState>; purchase: LoadedPurchase },
    ledger: LoadedWalletPayment,
    input: {
      purchase: DepositPurchaseState;
      buyer: UserView;
      discountPercent: number;
      paymentId: number;
      password: string;
      at: Date;
      /** The code the deposit held a use of, under its lock; null for none. */
      promo: HeldPromo | null;
    },
    reservation: LoginReservation,
  ) {
    const { purchase, buyer, discountPercent, paymentId, password, at } = input;
    assert(purchase.login !== null, 'a purchase names its login');
    const plan = purchasedPlan(planForSale(loaded.plan.state));
    const code = this.settleCode(input.promo, {
      depositPaymentId: purchase.paymentId,
      paymentId,
      subscriptionId: purchase.subscriptionId,
      listPriceMinor: plan.priceMinor,
      at,
    });
    const decision = decidePurchase(
      {
        subscriptionId: purchase.subscriptionId,
        userUuid: buyer.uuid,
        userEmail: buyer.email,
        plan,
        // The code was held because it beat the referral discount: the two never add up.
        discountPercent: code === null ? discountPercent : 0,
        codeDiscountMinor: code?.discountMinor ?? 0,
        paymentId,
        login: purchase.login,
        password,
        quotedPriceMinor: purchase.priceMinor,
        at,
      },
      loaded.subscription.state,
    );
    const paid = this.paidByDeposit(ledger, loaded.purchase, {
      user: buyer,
      paymentId,
      subscriptionId: purchase.subscriptionId,
      charge: decision.charge,
      at,
    });
    reservation.reserve(purchase.subscriptionId);
    return { subscription: decision.subscription, ...paid, ...promoEvents(input.promo, code?.events ?? []) };
  }

  /**
   * The held use of a code turned into the use, with the payment (`settlePromoCodeReservation`); null when the deposit
   * held none. A refusal (money after the hold expired, its place taken) is thrown to fail the purchase.
   */
  private settleCode(
    promo: HeldPromo | null,
    settlement: {
      depositPaymentId: number;
      paymentId: number;
      subscriptionId: string;
      listPriceMinor: number;
      at: Date;
    },
  ) {
    if (promo === null) return null;
    return settlePromoCodeReservation({ ...settlement, isNewClient: promo.isNewClient }, promo.state);
  }

  /**
   * The code a deposit held, read before the settlement's locks: its stream to lock and whether the client is new
   * (for a hold that expired and is asked again). Nothing when the deposit held no use.
   */
  async settlingPromo(depositPaymentId: number, userUuid: string): Promise<SettlingPromo | null> {
    const code = await this.promoCodes.reservedFor(depositPaymentId);
    if (code === null) return null;
    return { code, isNewClient: await this.promoCodes.isNewClient(userUuid) };
  }

  /** The code's stream a settlement locks, when the deposit held a use. */
  promoStreams(promo: SettlingPromo | null): PromoCodeStreams {
    return this.promoCodes.streams(promo === null ? null : { code: promo.code, use: 'PURCHASE', isNewClient: false });
  }

  /** The deposit's held use given back, in the append of its purchase's FAILED or its checkout's close. */
  releaseCode(
    promo: HeldPromo | null,
    release: { depositPaymentId: number; reason: 'PURCHASE_FAILED' | 'CHECKOUT_CLOSED'; at: Date },
  ): { promo?: PromoCodeEvent[] } {
    if (promo === null) return {};
    return { promo: releasePromoCodeReservation(release, promo.state) };
  }

  /** The reservation of the login a deposit's or a checkout's purchase takes. */
  loginReservation(purchase: DepositPurchaseState): LoginReservation {
    assert(purchase.login !== null, 'a purchase names its login');
    return new LoginReservation(purchase.login, this.subscriptions);
  }

  /**
   * What a deposit must bring for a purchase of `priceMinor` to be paid from the balance once it arrives: the price,
   * plus the debt of a balance a confirmed staff override left negative, which the credit pays first.
   */
  async depositNeededMinor(userUuid: string, priceMinor: number): Promise<number> {
    const balanceMinor = (await this.balances.balancesOf([userUuid])).get(userUuid) ?? 0;
    return depositNeededMinor(balanceMinor, priceMinor);
  }

  private async buyFor(deposit: DepositPurchaseView, origin: CommandOrigin): Promise<DepositPurchaseStatus | null> {
    const { purchase } = deposit;
    const buyer = await this.parties.existingUser(deposit.userUuid);
    const password = (await this.secrets.newest(purchase.subscriptionId))?.password;
    assert(password !== undefined, `the password of deposit ${deposit.paymentId}'s purchase waits for it`);
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    const subscriptionId = purchase.subscriptionId;
    const reservation = this.loginReservation(purchase);
    const settling = await this.settlingPromo(deposit.paymentId, buyer.uuid);
    const { result } = await this.pipeline.run({
      ...origin,
      streams: {
        plan: planStreams.lockedForReading(purchase.paymentPlanId),
        subscription: subscriptionStreams.ref(subscriptionId),
        ...this.purchaseStreams(deposit.paymentId),
        wallet: ledgerStreams.wallet(buyer.uuid),
        payment: ledgerStreams.payment(paymentId),
        login: reservation.stream,
        ...this.promoStreams(settling),
      },
      decide: (loaded, { at }) => {
        if (loaded.purchase.state?.status !== 'WAITING') return { events: {}, result: null };
        const promo = heldPromo(settling, loaded.promo);
        const decision = decideDepositPurchase(() =>
          this.decideBuy(
            { plan: loaded.plan, subscription: loaded.subscription, purchase: loaded.purchase },
            { wallet: loaded.wallet, payment: loaded.payment },
            { purchase, buyer, discountPercent, paymentId, password, at, promo },
            reservation,
          ),
        );
        return this.recorded(loaded.purchase, loaded.deposit, decision, at, promo);
      },
      // A purchase that will not happen keeps no password: it is forgotten with the FAILED it explains.
      alongside: async (tx, decision) => {
        if (decision.result === 'FAILED') await this.secrets.forgetAll(subscriptionId, tx.manager);
      },
    });
    return result;
  }

  private async renewFor(deposit: DepositPurchaseView, origin: CommandOrigin): Promise<DepositPurchaseStatus | null> {
    const { purchase } = deposit;
    const owner = await this.parties.existingUser(deposit.userUuid);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    const settling = await this.settlingPromo(deposit.paymentId, owner.uuid);
    const { result } = await this.pipeline.run({
      ...origin,
      streams: {
        subscription: subscriptionStreams.ref(purchase.subscriptionId),
        ...this.purchaseStreams(deposit.paymentId),
        wallet: ledgerStreams.wallet(owner.uuid),
        payment: ledgerStreams.payment(paymentId),
        ...this.promoStreams(settling),
      },
      decide: (loaded, { at }) => {
        if (loaded.purchase.state?.status !== 'WAITING') return { events: {}, result: null };
        const promo = heldPromo(settling, loaded.promo);
        const decision = decideDepositPurchase(() => {
          const subscription = loaded.subscription.state;
          const code = this.settleCode(promo, {
            depositPaymentId: deposit.paymentId,
            paymentId,
            subscriptionId: purchase.subscriptionId,
            listPriceMinor: subscription.exists ? subscription.listPriceMinor : 0,
            at,
          });
          const renewal = decideRenewal(
            {
              paymentId,
              discountPercent: code === null ? discountPercent : 0,
              codeDiscountMinor: code?.discountMinor ?? 0,
              at,
              automatic: false,
              quotedPriceMinor: purchase.priceMinor,
            },
            subscription,
          );
          const paid = this.paidByDeposit(loaded, loaded.purchase, {
            user: owner,
            paymentId,
            subscriptionId: purchase.subscriptionId,
            charge: renewal.charge,
            at,
          });
          return { subscription: renewal.subscription, ...paid, ...promoEvents(promo, code?.events ?? []) };
        });
        return this.recorded(loaded.purchase, loaded.deposit, decision, at, promo);
      },
    });
    return result;
  }

  /**
   * The streams a purchase's completion names: its own, and its deposit's payment stream read only (what the deposit
   * brought, which a failure records, under its lock).
   */
  private purchaseStreams(depositPaymentId: number) {
    return {
      deposit: ledgerStreams.paymentForReading(depositPaymentId),
      purchase: depositPurchaseStreams.ref(depositPaymentId),
    };
  }

  /** The charge of a purchase or renewal a deposit pays for, and the deposit's DONE with what it charged. */
  private paidByDeposit(
    ledger: LoadedWalletPayment,
    purchase: LoadedPurchase,
    paid: { user: UserView; paymentId: number; subscriptionId: string; charge: SubscriptionCharge; at: Date },
  ) {
    const { user, paymentId, subscriptionId, charge, at } = paid;
    const money = decideWalletCharge(
      { wallet: ledger.wallet.state, payment: ledger.payment.state },
      { user: { uuid: user.uuid, email: user.email }, paymentId, subscriptionId, ...charge, at },
      randomUUID(),
    );
    const done = depositPurchaseDecider.decide(
      {
        type: 'CompleteDepositPurchase',
        subscriptionPaymentId: paymentId,
        chargedMinor: charge.amountMinor,
        completedAt: at.toISOString(),
      },
      purchase.state,
    );
    return { wallet: money.wallet, payment: money.payment, purchase: done };
  }

  /** A deposit purchase's decision as the command's events: all of them when DONE, the purchase's FAILED alone else. */
  private recorded<Events extends object>(
    purchase: LoadedPurchase,
    deposit: LoadedPaymentStream,
    decision: DepositPurchaseDecision<Events>,
    at: Date,
    promo: HeldPromo | null,
  ): {
    events: Events | { purchase: DepositPurchaseEvent[]; promo?: PromoCodeEvent[] };
    result: DepositPurchaseStatus;
  } {
    if (decision.status === 'DONE') return { events: decision.events, result: decision.status };
    // A purchase that will not happen gives its code's held use back in the same append.
    const depositPaymentId = purchase.state?.paymentId ?? 0;
    return {
      events: {
        purchase: this.decideFailed(purchase, deposit.state, { errorCode: decision.errorCode, at }),
        ...this.releaseCode(promo, { depositPaymentId, reason: 'PURCHASE_FAILED', at }),
      },
      result: decision.status,
    };
  }

  /**
   * The purchase's FAILED, with what its deposit brought (the ledger's fact, from the deposit as the command sees it
   * under its lock); nothing once the purchase no longer waits.
   */
  decideFailed(
    purchase: LoadedPurchase,
    deposit: PaymentState | null,
    failed: { errorCode: ErrorCode; at: Date },
  ): DepositPurchaseEvent[] {
    return depositPurchaseDecider.decide(
      {
        type: 'FailDepositPurchase',
        errorCode: failed.errorCode,
        amountReceivedMinor: depositFacts(deposit)?.amountReceivedMinor ?? 0,
        failedAt: failed.at.toISOString(),
      },
      purchase.state,
    );
  }

  /** FAILED on the purchase alone, when the purchase's own append could not happen; its password is forgotten. */
  private async fail(
    deposit: DepositPurchaseView,
    errorCode: ErrorCode,
    origin: CommandOrigin,
  ): Promise<DepositPurchaseStatus | null> {
    const settling = await this.settlingPromo(deposit.paymentId, deposit.userUuid);
    const { result } = await this.pipeline.run({
      ...origin,
      streams: { ...this.purchaseStreams(deposit.paymentId), ...this.promoStreams(settling) },
      decide: (loaded, { at }) => {
        const failed = this.decideFailed(loaded.purchase, loaded.deposit.state, { errorCode, at });
        const released =
          failed.length === 0
            ? {}
            : this.releaseCode(heldPromo(settling, loaded.promo), {
                depositPaymentId: deposit.paymentId,
                reason: 'PURCHASE_FAILED',
                at,
              });
        return { events: { purchase: failed, ...released }, result: failed.length > 0 ? ('FAILED' as const) : null };
      },
      alongside: async (tx, decision) => {
        if (decision.result === 'FAILED' && deposit.purchase.kind === 'BUY')
          await this.secrets.forgetAll(deposit.purchase.subscriptionId, tx.manager);
      },
    });
    return result;
  }
}

/** What a deposit made to buy a package (by crypto or by card) will buy, once its money arrives. */
export function buyIntent(
  plan: ReturnType<typeof planForSale>,
  purchase: { subscriptionId: string; login: string; priceMinor: number; discountPercent: number },
) {
  return { kind: 'BUY' as const, paymentPlanId: plan.planId, planName: plan.name, ...purchase };
}

/** A code a deposit held, under the code's lock at its settlement. */
export interface HeldPromo {
  state: PromoCodeState;
  isNewClient: boolean;
}

/** The code's state under its lock, when the settlement named its stream (the stream is absent otherwise). */
export function heldPromo(
  settling: SettlingPromo | null,
  loaded: LoadedStream<PromoCodeState> | undefined,
): HeldPromo | null {
  if (settling === null || loaded === undefined) return null;
  return { state: loaded.state, isNewClient: settling.isNewClient };
}

/** The code's events as a member of the command's events, only when its stream was named. */
function promoEvents(promo: HeldPromo | null, events: PromoCodeEvent[]): { promo?: PromoCodeEvent[] } {
  return promo === null ? {} : { promo: events };
}
