import type { LedgerAccount, PaymentMethod, PaymentRecordedData } from '@kupa/proto';
import { WITHOUT_PERSONAL_FIELDS } from './plain-payment';

/**
 * The `PaymentRecorded` of a deposit a payment provider will settle (a cashier invoice, a card checkout): PENDING,
 * for the amount asked, from the provider's world account, with nothing a person wrote on it. An ambassador's bonus
 * is booked when the money arrives, and the report that books it names it.
 */
export function pendingProviderDeposit(deposit: {
  paymentId: number;
  owner: { userUuid: string; email: string };
  method: PaymentMethod;
  aggregator: 'CASHIER' | 'STRIPE';
  counterAccount: LedgerAccount;
  amountMinor: number;
  createdAt: string;
}): PaymentRecordedData {
  return {
    paymentId: deposit.paymentId,
    userUuid: deposit.owner.userUuid,
    userEmail: deposit.owner.email,
    type: 'DEPOSIT',
    method: deposit.method,
    aggregator: deposit.aggregator,
    status: 'PENDING',
    amountMinor: deposit.amountMinor,
    currency: 'USD',
    ...WITHOUT_PERSONAL_FIELDS,
    counterAccount: deposit.counterAccount,
    createdAt: deposit.createdAt,
    bonusForPaymentId: null,
  };
}
