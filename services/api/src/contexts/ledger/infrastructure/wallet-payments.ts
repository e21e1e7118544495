import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { LoadedStream, StreamRef } from '../../../platform/commands';
import type { PaymentEvent, WalletEvent } from '../domain/ledger.events';
import type { PaymentState } from '../domain/payment.state';
import * as walletPayment from '../domain/wallet-payment';
import type { WalletPaymentEvents, WalletPaymentInput } from '../domain/wallet-payment';
import type { WalletState } from '../domain/wallet.state';
import { nextPaymentIds, paymentStreams, walletStreams } from './ledger-streams';

/*
 * The streams of a charge from a wallet and a refund to it (`domain/wallet-payment.ts`), for another context that
 * names them beside its own in one `CommandPipeline` run (ADR 0006) and decides their events here.
 */

/** The ledger streams a charge from a wallet or a refund to it appends to: the wallet and the new payment. */
export interface WalletPaymentStreams {
  wallet: StreamRef<WalletState, WalletEvent>;
  payment: StreamRef<PaymentState | null, PaymentEvent>;
}

export interface LoadedWalletPayment {
  wallet: LoadedStream<WalletState>;
  payment: LoadedStream<PaymentState | null>;
}

/** A payment id, taken before the command's transaction because the payment's stream is locked up front. */
export async function nextPaymentId(manager: EntityManager): Promise<number> {
  const [paymentId] = await nextPaymentIds(manager, 1);
  return paymentId;
}

export function walletPaymentStreams(userUuid: string, paymentId: number): WalletPaymentStreams {
  return { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) };
}

/** A SUBSCRIPTION_PAYMENT from the balance (`domain/wallet-payment.ts`), booked under a new transaction id. */
export function decideWalletCharge(loaded: LoadedWalletPayment, input: WalletPaymentInput): WalletPaymentEvents {
  return walletPayment.decideWalletCharge(statesOf(loaded), input, randomUUID());
}

/** A REFUND of a subscription's price (`domain/wallet-payment.ts`), booked under a new transaction id. */
export function decideWalletRefund(loaded: LoadedWalletPayment, input: WalletPaymentInput): WalletPaymentEvents {
  return walletPayment.decideWalletRefund(statesOf(loaded), input, randomUUID());
}

function statesOf(loaded: LoadedWalletPayment): walletPayment.WalletPaymentStates {
  return { wallet: loaded.wallet.state, payment: loaded.payment.state };
}
