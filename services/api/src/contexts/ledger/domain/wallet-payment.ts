import type { PaymentRecordedData } from '@kupa/proto';
import type { PaymentEvent, WalletEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import type { PaymentState } from './payment.state';
import { REFUND_ACCOUNT, SUBSCRIPTION_REVENUE_ACCOUNT, walletDecider } from './wallet.decider';
import type { WalletState } from './wallet.state';

/*
 * A charge from a wallet and a refund to it, as another context composes them (ADR 0006, docs/adr/0024-
 * subscriptions.md, docs/adr/0068-deposit-purchases-owned-by-subscriptions.md): the wallet's event and the new
 * payment's recording, decided together so that they and the caller's own events are one atomic append. The rules
 * stay the ledger's: a charge never takes the balance below zero (`error.insufficient.balance`), every transaction
 * balances.
 */

/** The states of the two streams a charge or a refund appends to: the wallet and the new payment. */
export interface WalletPaymentStates {
  wallet: WalletState;
  payment: PaymentState | null;
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

/** A SUBSCRIPTION_PAYMENT from the balance: `user:{uuid}` → `revenue:subscriptions`, SUCCESS at once. */
export function decideWalletCharge(
  states: WalletPaymentStates,
  input: WalletPaymentInput,
  transactionId: string,
): WalletPaymentEvents {
  const wallet = walletDecider.decide({ type: 'ChargeSubscription', ...moneyOf(input, transactionId) }, states.wallet);
  const payment = recordPayment(states, input, 'SUBSCRIPTION_PAYMENT', SUBSCRIPTION_REVENUE_ACCOUNT);
  return { wallet, payment };
}

/** A REFUND of a subscription's price: `expense:refund` → `user:{uuid}`. */
export function decideWalletRefund(
  states: WalletPaymentStates,
  input: WalletPaymentInput,
  transactionId: string,
): WalletPaymentEvents {
  const wallet = walletDecider.decide({ type: 'RefundSubscription', ...moneyOf(input, transactionId) }, states.wallet);
  const payment = recordPayment(states, input, 'REFUND', REFUND_ACCOUNT);
  return { wallet, payment };
}

function moneyOf(input: WalletPaymentInput, transactionId: string) {
  return {
    userUuid: input.user.uuid,
    paymentId: input.paymentId,
    subscriptionId: input.subscriptionId,
    amountMinor: input.amountMinor,
    transactionId,
  };
}

function recordPayment(
  states: WalletPaymentStates,
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
  return paymentDecider.decide({ type: 'RecordPayment', payment }, states.payment);
}
