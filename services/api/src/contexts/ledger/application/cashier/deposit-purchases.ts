import { Injectable } from '@nestjs/common';
import type { CryptoMethod } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';
import type { LoadedStream, StreamRef } from '../../../../platform/commands';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import type { PaymentEvent } from '../../domain/ledger.events';
import type { PaymentState } from '../../domain/payment.state';
import { paymentStreams } from '../../infrastructure/ledger-streams';
import { CashierDeposits, type OpenedInvoice } from './cashier-deposits';

/** What the ledger knows of a deposit that pays for a purchase: whose it is, what it brought, and how it came. */
export interface DepositFacts {
  paymentId: number;
  userUuid: string;
  /** What the deposit brought so far, in cents. */
  amountReceivedMinor: number;
  /** Whether the money came by card checkout (docs/adr/0029-card-checkout.md) rather than the crypto cashier. */
  byCard: boolean;
}

/** A deposit's payment stream, as a purchase command names it beside its own. */
export type DepositStreamRef = StreamRef<PaymentState | null, PaymentEvent>;
export type LoadedDeposit = LoadedStream<PaymentState | null>;

/**
 * The ledger's half of deposit-and-buy and deposit-and-renew (docs/adr/0030-deposit-and-buy.md): the deposit's
 * money only. The purchase it pays for is the subscriptions' (docs/adr/0068-deposit-purchases-owned-by-
 * subscriptions.md), on a stream of its own that their commands name beside the deposit's payment stream.
 */
@Injectable()
export class DepositPurchases {
  constructor(
    private readonly deposits: CashierDeposits,
    private readonly store: EventStore,
  ) {}

  /** What a deposit for a purchase of `priceMinor` asks: the price, raised to the cashier's minimum deposit. */
  amountFor(priceMinor: number): number {
    return Math.max(priceMinor, this.deposits.minimumMinor());
  }

  /**
   * The invoice of a deposit for a purchase, after the same limits as any deposit (the amount within the cashier's
   * range, the cap on unpaid deposits). Its payment is recorded by `decideOpened` in the caller's command.
   */
  async openInvoice(command: { actor: Actor; amountMinor: number; method: CryptoMethod }): Promise<OpenedInvoice> {
    const { actor, amountMinor, method } = command;
    await this.deposits.assertCanOpen(actor.userUuid, amountMinor);
    return this.deposits.openInvoice(actor, amountMinor, method);
  }

  /** The PENDING payment of an opened invoice, with the invoice. */
  decideOpened(invoice: OpenedInvoice, at: Date, loaded: LoadedDeposit): PaymentEvent[] {
    return this.deposits.decideOpened(invoice, at, loaded.state);
  }

  /** The deposit's facts, folded from its stream without a lock; null for no such payment. */
  async find(paymentId: number): Promise<DepositFacts | null> {
    const state = await paymentStreams.peek(this.store, paymentId);
    return state === null ? null : factsOf(state);
  }

  /** The deposit's facts under its lock (or as a decision leaves it). */
  facts(state: PaymentState | null): DepositFacts | null {
    return state === null ? null : factsOf(state);
  }

  stream(paymentId: number): DepositStreamRef {
    return paymentStreams.ref(paymentId);
  }

  /** The deposit's payment stream named to be read only: what it brought, under its lock. */
  readStream(paymentId: number): StreamRef<PaymentState | null, never> {
    return paymentStreams.read(paymentId);
  }
}

function factsOf(state: PaymentState): DepositFacts {
  return {
    paymentId: state.paymentId,
    userUuid: state.userUuid,
    amountReceivedMinor: state.cashier?.amountReceivedMinor ?? state.card?.amountReceivedMinor ?? 0,
    byCard: state.card !== null,
  };
}
