import type { PaymentRecordedData } from '@kupa/proto';
import { assert } from '../../../kernel';
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

/** The streams a refund to the balance appends to: the wallet, the refunded payment and the new REFUND. */
export interface RefundToBalanceStates extends WalletPaymentStates {
  refunded: PaymentState | null;
}

export interface RefundToBalanceEvents extends WalletPaymentEvents {
  refunded: PaymentEvent[];
}

/**
 * Staff give a SUBSCRIPTION_PAYMENT back to the balance, whole (ADR 0092): the payment is marked refunded (at most
 * once, `error.payment.already.refunded`), a REFUND payment records it, and its money comes back from the account that
 * received it (`revenue:subscriptions` → `user:{uuid}`), one balanced transaction in the same append.
 */
export function decideRefundToBalance(
  states: RefundToBalanceStates,
  input: {
    user: { uuid: string; email: string };
    refundedPaymentId: number;
    refundPaymentId: number;
    subscriptionId: string;
    reason: string;
    endedSubscription: boolean;
    at: Date;
  },
  transactionId: string,
): RefundToBalanceEvents {
  const refunded = paymentDecider.decide(
    {
      type: 'RefundToBalance',
      paymentId: input.refundedPaymentId,
      refundPaymentId: input.refundPaymentId,
      subscriptionId: input.subscriptionId,
      reason: input.reason,
      endedSubscription: input.endedSubscription,
      refundedAt: input.at.toISOString(),
    },
    states.refunded,
  );
  const original = states.refunded;
  assert(original !== null, `payment ${input.refundedPaymentId} was recorded`);
  assert(original.userUuid === input.user.uuid, `payment ${input.refundedPaymentId} is the client's own`);
  const money: WalletPaymentInput = {
    user: input.user,
    paymentId: input.refundPaymentId,
    subscriptionId: input.subscriptionId,
    amountMinor: original.amountMinor,
    discountPercent: 0,
    at: input.at,
  };
  const wallet = walletDecider.decide(
    { type: 'RefundSubscriptionPayment', ...moneyOf(money, transactionId) },
    states.wallet,
  );
  const payment = recordPayment(states, money, 'REFUND', SUBSCRIPTION_REVENUE_ACCOUNT, input.reason);
  return { wallet, payment, refunded };
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
  comment: string | null = null,
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
    comment,
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
