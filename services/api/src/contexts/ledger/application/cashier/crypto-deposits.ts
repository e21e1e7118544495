import { Injectable } from '@nestjs/common';
import type { CryptoMethod } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';
import type { LoadedStream, StreamRef } from '../../../../platform/commands';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import type { PaymentEvent } from '../../domain/ledger.events';
import type { PaymentState } from '../../domain/payment.state';
import { paymentStreams } from '../../infrastructure/ledger-streams';
import { CashierDeposits, type OpenedInvoice } from './cashier-deposits';

/** What the ledger knows of a deposit: whose it is, what it brought, and how it came. */
export interface DepositFacts {
  paymentId: number;
  userUuid: string;
  /** What the deposit brought so far, in cents. */
  amountReceivedMinor: number;
  /** Whether the money came by card checkout (docs/adr/0029-card-checkout.md) rather than the crypto cashier. */
  byCard: boolean;
}

/** A deposit's payment stream, as another context's command names it beside its own. */
export type DepositStreamRef = StreamRef<PaymentState | null, PaymentEvent>;
export type LoadedDeposit = LoadedStream<PaymentState | null>;

/**
 * A crypto deposit as another context composes it (docs/adr/0030-deposit-and-buy.md, docs/adr/0068-deposit-purchases-
 * owned-by-subscriptions.md): the invoice opened at the cashier, then the deposit's opening decided here inside the
 * caller's own command, beside whatever the deposit pays for; and what a deposit brought. Money only: what it pays
 * for is the caller's, on streams of its own.
 */
@Injectable()
export class CryptoDeposits {
  constructor(
    private readonly deposits: CashierDeposits,
    private readonly store: EventStore,
  ) {}

  /** What a deposit meant to bring `priceMinor` asks: that, raised to the cashier's minimum deposit. */
  amountFor(priceMinor: number): number {
    return Math.max(priceMinor, this.deposits.minimumMinor());
  }

  /**
   * A deposit's invoice, after the limits of every deposit (the amount within the cashier's range, the cap on unpaid
   * deposits). Its payment is recorded by `decideOpened` in the caller's command.
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
    const state = await paymentStreams.currentState(this.store, paymentId);
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
    return paymentStreams.lockedForReading(paymentId);
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
