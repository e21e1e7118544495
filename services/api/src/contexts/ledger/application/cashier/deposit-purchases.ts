import { Injectable } from '@nestjs/common';
import type { CryptoDepositResponse, CryptoMethod, ErrorCode } from '@kupa/proto';
import { DataSource } from 'typeorm';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { LoadedStream, StreamRef } from '../../../../platform/commands';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import type { PaymentEvent } from '../../domain/ledger.events';
import { paymentDecider } from '../../domain/payment.decider';
import type { PaymentPurchaseState, PaymentState } from '../../domain/payment.state';
import { paymentStreams } from '../../infrastructure/ledger-streams';
import { DepositPurchaseDetails } from '../../queries/payment-rows/deposit-purchase-details.port';
import { CashierDeposits, type DepositAlongside, type DepositPurchaseIntent } from './cashier-deposits';

/** A deposit's purchase as the subscriptions context reads it: who paid, what for, and how it stands. */
export interface DepositPurchaseView {
  paymentId: number;
  userUuid: string;
  purchase: PaymentPurchaseState;
  /** What the deposit brought so far, in cents. */
  amountReceivedMinor: number;
  /** Whether the money came by card checkout (docs/adr/0029-card-checkout.md) rather than the crypto cashier. */
  byCard: boolean;
}

/** A deposit's payment stream, as a purchase command names it beside its own. */
export type DepositStreamRef = StreamRef<PaymentState | null, PaymentEvent>;
export type LoadedDeposit = LoadedStream<PaymentState | null>;

/**
 * The ledger's half of deposit-and-buy and deposit-and-renew (docs/adr/0030-deposit-and-buy.md). The subscriptions
 * context opens the deposit here with what it pays for, and, once the money arrived, names the deposit's payment
 * stream beside the subscription's in one command and asks here for the event that closes the purchase: DONE in the
 * same append as the purchase itself, or FAILED alone. A purchase no longer WAITING decides nothing, so the purchase
 * happens once however often the processor sees the deposit's credit.
 */
@Injectable()
export class DepositPurchases {
  constructor(
    private readonly deposits: CashierDeposits,
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly details: DepositPurchaseDetails,
  ) {}

  /** What a deposit for a purchase of `priceMinor` asks: the price, raised to the cashier's minimum deposit. */
  amountFor(priceMinor: number): number {
    return Math.max(priceMinor, this.deposits.minimumMinor());
  }

  /**
   * Opens the deposit with its purchase: the same limits as any deposit (the amount within the cashier's range, the
   * cap on unpaid deposits), then the invoice, then the PENDING payment with `DepositPurchaseRequested`.
   */
  async open(command: {
    actor: Actor;
    amountMinor: number;
    method: CryptoMethod;
    intent: DepositPurchaseIntent;
    context: RequestContext;
    alongside?: DepositAlongside;
  }): Promise<CryptoDepositResponse> {
    const { actor, amountMinor, method, intent, context, alongside } = command;
    await this.deposits.assertCanOpen(actor.userUuid, amountMinor);
    return this.deposits.open(actor, amountMinor, method, context, { intent, alongside });
  }

  /** The deposit's purchase, folded from its stream without a lock; null for a deposit that pays for none. */
  async find(paymentId: number): Promise<DepositPurchaseView | null> {
    const state = await paymentStreams.peek(this.store, paymentId);
    return state === null ? null : viewOf(state);
  }

  /** Of the given deposits, those whose purchase still waits: what the process manager has to run. */
  async waitingAmong(paymentIds: readonly number[]): Promise<number[]> {
    if (paymentIds.length === 0) return [];
    const rows: Array<{ payment_id: string }> = await this.dataSource.query(
      `SELECT payment_id::text FROM ${this.details.relation}
        WHERE payment_id = ANY($1::bigint[]) AND status = 'WAITING' ORDER BY payment_id`,
      [paymentIds],
    );
    return rows.map((row) => Number(row.payment_id));
  }

  stream(paymentId: number): DepositStreamRef {
    return paymentStreams.ref(paymentId);
  }

  /** The purchase under the deposit's lock; null once it is DONE or FAILED (nothing more to do). */
  waiting(loaded: LoadedDeposit): DepositPurchaseView | null {
    const view = loaded.state === null ? null : viewOf(loaded.state);
    return view !== null && view.purchase.status === 'WAITING' ? view : null;
  }

  decideCompleted(
    loaded: LoadedDeposit,
    done: { subscriptionPaymentId: number; chargedMinor: number; at: Date },
  ): PaymentEvent[] {
    return paymentDecider.decide(
      {
        type: 'CompleteDepositPurchase',
        subscriptionPaymentId: done.subscriptionPaymentId,
        chargedMinor: done.chargedMinor,
        completedAt: done.at.toISOString(),
      },
      loaded.state,
    );
  }

  decideFailed(loaded: LoadedDeposit, failed: { errorCode: ErrorCode; at: Date }): PaymentEvent[] {
    return paymentDecider.decide(
      { type: 'FailDepositPurchase', errorCode: failed.errorCode, failedAt: failed.at.toISOString() },
      loaded.state,
    );
  }
}

function viewOf(state: PaymentState): DepositPurchaseView | null {
  if (state.purchase === null) return null;
  return {
    paymentId: state.paymentId,
    userUuid: state.userUuid,
    purchase: state.purchase,
    amountReceivedMinor: state.cashier?.amountReceivedMinor ?? state.card?.amountReceivedMinor ?? 0,
    byCard: state.card !== null,
  };
}
