import { Injectable } from '@nestjs/common';
import type { PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { LoadedStream, StreamRef } from '../../../platform/commands';
import type { PaymentEvent, WalletEvent } from '../domain/ledger.events';
import { paymentDecider } from '../domain/payment.decider';
import type { PaymentState } from '../domain/payment.state';
import { REFUND_ACCOUNT, SUBSCRIPTION_REVENUE_ACCOUNT, walletDecider } from '../domain/wallet.decider';
import type { WalletState } from '../domain/wallet.state';
import { nextPaymentIds, paymentStreams, walletStreams } from './ledger-streams';

/** The ledger streams a subscription's charge or refund appends to: the user's wallet and the new payment. */
export interface SubscriptionPaymentStreams {
  wallet: StreamRef<WalletState, WalletEvent>;
  payment: StreamRef<PaymentState | null, PaymentEvent>;
}

export interface LoadedSubscriptionPayment {
  wallet: LoadedStream<WalletState>;
  payment: LoadedStream<PaymentState | null>;
}

/** Who pays (or is paid back), and for which subscription. */
export interface SubscriptionPaymentInput {
  user: { uuid: string; email: string };
  paymentId: number;
  subscriptionId: string;
  amountMinor: number;
  /** The referral discount the price got, in percent; recorded on the payment. */
  discountPercent: number;
  at: Date;
}

export interface SubscriptionPaymentEvents {
  wallet: WalletEvent[];
  payment: PaymentEvent[];
}

/**
 * The ledger's half of a subscription command (ADR 0006, docs/adr/0024-subscriptions.md): the subscriptions context
 * names these streams beside its own in one `CommandPipeline` run, and asks here for the wallet and payment events,
 * so that the subscription, the wallet debit and the payment are one atomic append. The rules stay the ledger's: a
 * charge never takes the balance below zero (`error.insufficient.balance`), every transaction balances.
 */
@Injectable()
export class SubscriptionPayments {
  constructor(private readonly dataSource: DataSource) {}

  /** A payment id, taken before the command's transaction because the payment's stream is locked up front. */
  async nextPaymentId(): Promise<number> {
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    return paymentId;
  }

  streams(userUuid: string, paymentId: number): SubscriptionPaymentStreams {
    return { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) };
  }

  /** The user's balance in cents under the wallet's lock: what a short renewal reports as missing. */
  balanceMinor(loaded: LoadedSubscriptionPayment): number {
    return loaded.wallet.state.balanceMinor;
  }

  /** A SUBSCRIPTION_PAYMENT from the balance: `user:{uuid}` → `revenue:subscriptions`, SUCCESS at once. */
  decideCharge(loaded: LoadedSubscriptionPayment, input: SubscriptionPaymentInput): SubscriptionPaymentEvents {
    const wallet = walletDecider.decide({ type: 'ChargeSubscription', ...this.money(input) }, loaded.wallet.state);
    const payment = this.recordPayment(loaded, input, 'SUBSCRIPTION_PAYMENT', SUBSCRIPTION_REVENUE_ACCOUNT);
    return { wallet, payment };
  }

  /** A REFUND of a subscription's price: `expense:refund` → `user:{uuid}`. */
  decideRefund(loaded: LoadedSubscriptionPayment, input: SubscriptionPaymentInput): SubscriptionPaymentEvents {
    const wallet = walletDecider.decide({ type: 'RefundSubscription', ...this.money(input) }, loaded.wallet.state);
    const payment = this.recordPayment(loaded, input, 'REFUND', REFUND_ACCOUNT);
    return { wallet, payment };
  }

  private money(input: SubscriptionPaymentInput) {
    return {
      userUuid: input.user.uuid,
      paymentId: input.paymentId,
      subscriptionId: input.subscriptionId,
      amountMinor: input.amountMinor,
      transactionId: randomUUID(),
    };
  }

  private recordPayment(
    loaded: LoadedSubscriptionPayment,
    input: SubscriptionPaymentInput,
    type: 'SUBSCRIPTION_PAYMENT' | 'REFUND',
    counterAccount: typeof SUBSCRIPTION_REVENUE_ACCOUNT | typeof REFUND_ACCOUNT,
  ): PaymentEvent[] {
    const payment: PaymentRecordedData = {
      paymentId: input.paymentId,
      userUuid: input.user.uuid,
      userEmail: input.user.email,
      type,
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      status: 'SUCCESS',
      amountMinor: input.amountMinor,
      currency: 'USD',
      comment: null,
      publicNote: null,
      counterAccount,
      correction: false,
      transferId: null,
      senderProfileId: null,
      recipientProfileId: null,
      discountPercent: type === 'SUBSCRIPTION_PAYMENT' ? input.discountPercent : 0,
      createdAt: input.at.toISOString(),
    };
    return paymentDecider.decide({ type: 'RecordPayment', payment }, loaded.payment.state);
  }
}
