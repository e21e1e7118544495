import { DataSource } from 'typeorm';
import { Injectable } from '@nestjs/common';
import {
  type CryptoDepositResponse,
  type CryptoMethod,
  depositNeededMinor,
  type DepositPurchaseRequestedData,
  type DepositPurchaseStatus,
  discountedPriceMinor,
  type ErrorCode,
  minorToAmount,
} from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert } from '../../../kernel';
import type { Actor, RequestContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
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

/** What a deposit made to buy or renew will buy once its money arrives; the ids and the instant come from the open. */
export type DepositPurchaseIntent = Omit<DepositPurchaseRequestedData, 'paymentId' | 'userUuid' | 'requestedAt'>;

/** A purchase's stream under its lock: null for a deposit that pays for none. */
type LoadedPurchase = LoadedStream<DepositPurchaseState | null>;

/** The ledger streams a charge from the wallet appends to, under their locks: the wallet and the new payment. */
export interface LoadedWalletPayment {
  wallet: LoadedWalletStream;
  payment: LoadedPaymentStream;
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
  result: Result;
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
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, planId, login, password, method, context } = command;
    const { intent, depositNeededMinor } = await this.quotePurchase(actor, planId, login);
    return this.openCryptoDeposit({
      actor,
      amountMinor: depositAmountMinor(depositNeededMinor, this.invoices.minimumMinor()),
      method,
      intent,
      password,
      context,
    });
  }

  /**
   * Records a deposit opened at its provider with the purchase it pays for, in one command: the deposit's payment
   * (the ledger's decision) and `DepositPurchaseRequested` on the purchase's own stream, and the purchase's password
   * in `subscription_secrets` under the id the subscription will take, in the same transaction.
   */
  async recordOpened<Result>(opening: DepositOpening<Result>): Promise<Result> {
    const { context, paymentId, userUuid, intent, byCard, password } = opening;
    const { result } = await this.pipeline.run({
      context,
      streams: { deposit: ledgerStreams.payment(paymentId), purchase: depositPurchaseStreams.ref(paymentId) },
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

  private async openCryptoDeposit(command: {
    actor: Actor;
    amountMinor: number;
    method: CryptoMethod;
    intent: DepositPurchaseIntent;
    password: string | null;
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, amountMinor, method, intent, password, context } = command;
    const invoice = await this.invoices.open({ owner: actor, amountMinor, method });
    return this.recordOpened({
      context,
      paymentId: invoice.paymentId,
      userUuid: actor.userUuid,
      intent,
      byCard: false,
      deposit: (at, state) => openCryptoDeposit(invoice, at, state),
      password,
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
  ): Promise<{ intent: ReturnType<typeof buyIntent>; depositNeededMinor: number }> {
    const buyer = await this.parties.existingUser(actor.userUuid);
    const plan = planForSale(await planStreams.currentState(this.store, planId));
    forSale(plan);
    if (await this.subscriptions.isLoginHeld(login))
      throw new ApiError('error.login.already.exists', { field: 'login' });
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const priceMinor = discountedPriceMinor(plan.priceMinor, discountPercent);
    const intent = buyIntent(plan, { subscriptionId: randomUUID(), login, priceMinor, discountPercent });
    return { intent, depositNeededMinor: await this.depositNeededMinor(buyer.uuid, priceMinor) };
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
    context: RequestContext;
  }): Promise<CryptoDepositResponse> {
    const { actor, subscriptionId, method, shownAmountMinor, context } = command;
    const subscription = await this.parties.subscription(subscriptionId);
    const owner = await this.parties.existingUser(subscription.userUuid);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    const state = await subscriptionStreams.currentState(this.store, subscriptionId);
    const quote = quoteRenewal({ discountPercent, at: this.clock.now() }, state);
    const neededMinor = await this.depositNeededMinor(owner.uuid, quote.priceMinor);
    if (shownAmountMinor !== null && shownAmountMinor !== neededMinor)
      throw new ApiError('error.renewal.amount.changed', { amount: minorToAmount(neededMinor) });
    return this.openCryptoDeposit({
      actor,
      amountMinor: depositAmountMinor(neededMinor, this.invoices.minimumMinor()),
      method,
      password: null,
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
    },
    reservation: LoginReservation,
  ) {
    const { purchase, buyer, discountPercent, paymentId, password, at } = input;
    assert(purchase.login !== null, 'a purchase names its login');
    const decision = decidePurchase(
      {
        subscriptionId: purchase.subscriptionId,
        userUuid: buyer.uuid,
        userEmail: buyer.email,
        plan: purchasedPlan(planForSale(loaded.plan.state)),
        discountPercent,
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
    return { subscription: decision.subscription, ...paid };
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
    const { result } = await this.pipeline.run({
      ...origin,
      streams: {
        plan: planStreams.lockedForReading(purchase.paymentPlanId),
        subscription: subscriptionStreams.ref(subscriptionId),
        ...this.purchaseStreams(deposit.paymentId),
        wallet: ledgerStreams.wallet(buyer.uuid),
        payment: ledgerStreams.payment(paymentId),
        login: reservation.stream,
      },
      prepare: (tx) => reservation.readHolders(tx),
      decide: (loaded, { at }) => {
        if (loaded.purchase.state?.status !== 'WAITING') return { events: {}, result: null };
        const decision = decideDepositPurchase(() =>
          this.decideBuy(
            { plan: loaded.plan, subscription: loaded.subscription, purchase: loaded.purchase },
            { wallet: loaded.wallet, payment: loaded.payment },
            { purchase, buyer, discountPercent, paymentId, password, at },
            reservation,
          ),
        );
        return this.recorded(loaded.purchase, loaded.deposit, decision, at);
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
    const { result } = await this.pipeline.run({
      ...origin,
      streams: {
        subscription: subscriptionStreams.ref(purchase.subscriptionId),
        ...this.purchaseStreams(deposit.paymentId),
        wallet: ledgerStreams.wallet(owner.uuid),
        payment: ledgerStreams.payment(paymentId),
      },
      decide: (loaded, { at }) => {
        if (loaded.purchase.state?.status !== 'WAITING') return { events: {}, result: null };
        const decision = decideDepositPurchase(() => {
          const renewal = decideRenewal(
            { paymentId, discountPercent, at, automatic: false, quotedPriceMinor: purchase.priceMinor },
            loaded.subscription.state,
          );
          const paid = this.paidByDeposit(loaded, loaded.purchase, {
            user: owner,
            paymentId,
            subscriptionId: purchase.subscriptionId,
            charge: renewal.charge,
            at,
          });
          return { subscription: renewal.subscription, ...paid };
        });
        return this.recorded(loaded.purchase, loaded.deposit, decision, at);
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
  ): { events: Events | { purchase: DepositPurchaseEvent[] }; result: DepositPurchaseStatus } {
    if (decision.status === 'DONE') return { events: decision.events, result: decision.status };
    return {
      events: { purchase: this.decideFailed(purchase, deposit.state, { errorCode: decision.errorCode, at }) },
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
    const { result } = await this.pipeline.run({
      ...origin,
      streams: this.purchaseStreams(deposit.paymentId),
      decide: (loaded, { at }) => {
        const failed = this.decideFailed(loaded.purchase, loaded.deposit.state, { errorCode, at });
        return { events: { purchase: failed }, result: failed.length > 0 ? ('FAILED' as const) : null };
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
