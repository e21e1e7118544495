import { Injectable } from '@nestjs/common';
import type { Subscription, SubscriptionPurchasedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert } from '../../../kernel';
import type { RequestContext } from '../../../platform/auth';
import { CommandPipeline, type CommandStamp } from '../../../platform/commands';
import type { StreamTransaction } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { planForSale, planStreams } from '../../catalog';
import { TrialUse, UserReader, type UserView } from '../../identity';
import { IdempotencyKeys, IdempotentCommands, SubscriptionPayments } from '../../ledger';
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
    private readonly subscriptions: SubscriptionReader,
    private readonly secrets: SubscriptionSecrets,
    private readonly discounts: ReferralDiscounts,
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
    const buyer = await this.existingUser(command.buyerUuid);
    const discountPercent = await this.discounts.percentFor(buyer.profileId);
    const paymentId = await this.payments.nextPaymentId();
    const subscriptionId = randomUUID();
    const ledger = this.payments.streams(buyer.uuid, paymentId);
    return withUniqueLogin(() =>
      this.idempotent.run(idempotency, {
        context: command.context,
        causationId: command.causationId ?? null,
        streams: {
          plan: planStreams.ref(planId),
          subscription: subscriptionStreams.ref(subscriptionId),
          wallet: ledger.wallet,
          payment: ledger.payment,
        },
        decide: (loaded, stamp) => {
          const plan = planForSale(loaded.plan.state);
          const purchased = purchaseSubscription(
            {
              subscriptionId,
              userUuid: buyer.uuid,
              userEmail: buyer.email,
              plan: {
                planId: plan.planId,
                planName: plan.name,
                durationInMonths: plan.durationInMonths,
                priceMinor: plan.priceMinor,
                currency: plan.currency,
                isRecurrent: plan.isRecurrent,
              },
              discountPercent,
              paymentId,
              login,
              password,
              at: stamp.at,
            },
            loaded.subscription.state,
          );
          const data = purchaseData(purchased);
          const money = this.payments.decideCharge(loaded, {
            user: { uuid: buyer.uuid, email: buyer.email },
            paymentId,
            subscriptionId,
            amountMinor: data.priceMinor,
            discountPercent: data.discountPercent,
            at: stamp.at,
          });
          return {
            events: { subscription: purchased, wallet: money.wallet, payment: money.payment },
            result: subscriptionFromPurchase(data, actorLabelOf(stamp)),
          };
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

function purchaseData(events: SubscriptionEvent[]): SubscriptionPurchasedData {
  const [event] = events;
  assert(event?.type === 'SubscriptionPurchased', 'a purchase decides one SubscriptionPurchased');
  return event.data;
}
