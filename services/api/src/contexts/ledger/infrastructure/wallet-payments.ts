import type { PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { LoadedStream, StreamRef } from '../../../platform/commands';
import type { PaymentEvent, WalletEvent } from '../domain/ledger.events';
import { paymentDecider } from '../domain/payment.decider';
import type { PaymentState } from '../domain/payment.state';
import { REFUND_ACCOUNT, SUBSCRIPTION_REVENUE_ACCOUNT, walletDecider } from '../domain/wallet.decider';
import type { WalletState } from '../domain/wallet.state';
import { nextPaymentIds, paymentStreams, walletStreams } from './ledger-streams';

/** The ledger streams a charge from a wallet or a refund to it appends to: the wallet and the new payment. */
export interface WalletPaymentStreams {
  wallet: StreamRef<WalletState, WalletEvent>;
  payment: StreamRef<PaymentState | null, PaymentEvent>;
}

export interface LoadedWalletPayment {
  wallet: LoadedStream<WalletState>;
  payment: LoadedStream<PaymentState | null>;
}

/** Who pays (or is paid back), and for which subscription. */
export interface WalletPaymentInput {
  user: { uuid: string; email: string };
  paymentId: number;
  subscriptionId: string;
  amountMinor: number;
  /** The referral discount the price got, in percent; recorded on the payment. */
  discountPercent: number;
  at: Date;
}

export interface WalletPaymentEvents {
  wallet: WalletEvent[];
  payment: PaymentEvent[];
}

/*
 * A charge from a wallet and a refund to it, as another context composes them (ADR 0006, docs/adr/0024-
 * subscriptions.md, docs/adr/0068-deposit-purchases-owned-by-subscriptions.md): it names these streams beside its own
 * in one `CommandPipeline` run and decides the wallet's and the payment's events here, so that its own events, the
 * wallet's and the payment's are one atomic append. The rules stay the ledger's: a charge never takes the balance
 * below zero (`error.insufficient.balance`), every transaction balances.
 */

/** A payment id, taken before the command's transaction because the payment's stream is locked up front. */
export async function nextPaymentId(manager: EntityManager): Promise<number> {
  const [paymentId] = await nextPaymentIds(manager, 1);
  return paymentId;
}

export function walletPaymentStreams(userUuid: string, paymentId: number): WalletPaymentStreams {
  return { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) };
}

/** A SUBSCRIPTION_PAYMENT from the balance: `user:{uuid}` → `revenue:subscriptions`, SUCCESS at once. */
export function decideWalletCharge(loaded: LoadedWalletPayment, input: WalletPaymentInput): WalletPaymentEvents {
  const wallet = walletDecider.decide({ type: 'ChargeSubscription', ...moneyOf(input) }, loaded.wallet.state);
  const payment = recordPayment(loaded, input, 'SUBSCRIPTION_PAYMENT', SUBSCRIPTION_REVENUE_ACCOUNT);
  return { wallet, payment };
}

/** A REFUND of a subscription's price: `expense:refund` → `user:{uuid}`. */
export function decideWalletRefund(loaded: LoadedWalletPayment, input: WalletPaymentInput): WalletPaymentEvents {
  const wallet = walletDecider.decide({ type: 'RefundSubscription', ...moneyOf(input) }, loaded.wallet.state);
  const payment = recordPayment(loaded, input, 'REFUND', REFUND_ACCOUNT);
  return { wallet, payment };
}

function moneyOf(input: WalletPaymentInput) {
  return {
    userUuid: input.user.uuid,
    paymentId: input.paymentId,
    subscriptionId: input.subscriptionId,
    amountMinor: input.amountMinor,
    transactionId: randomUUID(),
  };
}

function recordPayment(
  loaded: LoadedWalletPayment,
  input: WalletPaymentInput,
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
