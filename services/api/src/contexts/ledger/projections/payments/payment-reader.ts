import { Injectable } from '@nestjs/common';
import {
  minorToAmount,
  type Payment,
  type PaymentCard,
  type PaymentRecordedData,
  type StaffPayment,
} from '@kupa/proto';
import { type PaymentCardState, type PaymentCashierState } from '../../domain/payment.state';
import { DataSource } from 'typeorm';
import {
  audienceView,
  PAYMENT_COLUMNS,
  type PaymentAudience,
  type PaymentRow,
  paymentsWithPurchases,
  toPayment,
} from '../../queries/payment-rows/payment-query';
import { DepositPurchaseDetails } from '../../queries/payment-rows/deposit-purchase-details.port';
import { SubscriptionPaymentDetails } from '../../queries/payment-rows/subscription-payment-details.port';

/**
 * The `Payment` payload (docs/api.md) from what a payment's events say, so a command answers without a read: the
 * staff view with the authors' labels, or the owner's view with the labels they see.
 */
export function paymentPayload(
  payment: PaymentRecordedData & {
    updatedAt: string;
    cashier?: PaymentCashierState | null;
    card?: PaymentCardState | null;
  },
  authors: { createdBy: string; updatedBy: string; createdByPublic: string; updatedByPublic: string },
  audience: PaymentAudience,
): Payment {
  const staffView: StaffPayment = {
    paymentId: payment.paymentId,
    userUuid: payment.userUuid,
    userEmail: payment.userEmail,
    amount: minorToAmount(payment.amountMinor),
    currency: payment.currency,
    status: payment.status,
    method: payment.method,
    type: payment.type,
    aggregator: payment.aggregator,
    comment: payment.comment,
    publicNote: payment.publicNote,
    senderProfileId: payment.senderProfileId,
    recipientProfileId: payment.recipientProfileId,
    discountPercent: payment.discountPercent,
    transferId: payment.transferId,
    bonusPaymentId: payment.bonusPaymentId ?? null,
    bonusForPaymentId: payment.bonusForPaymentId ?? null,
    createdAt: payment.createdAt,
    createdBy: authors.createdBy,
    updatedAt: payment.updatedAt,
    updatedBy: authors.updatedBy,
    cashier: payment.cashier
      ? {
          provider: payment.cashier.provider,
          invoiceId: payment.cashier.invoiceId,
          invoiceUrl: payment.cashier.invoiceUrl,
          providerPaymentId: payment.cashier.providerPaymentId,
          providerStatus: payment.cashier.providerStatus,
          payCurrency: payment.cashier.payCurrency,
          amountAsked: minorToAmount(payment.cashier.amountAskedMinor),
          amountReceived: minorToAmount(payment.cashier.amountReceivedMinor),
          amountHeld: payment.cashier.heldMinor === null ? null : minorToAmount(payment.cashier.heldMinor),
        }
      : null,
    card: payment.card ? paymentCardOf(payment.card) : null,
    // What a deposit buys is read from the subscriptions' read model (`PaymentReader`); a command's payment buys none.
    purchase: null,
  };
  return audienceView(staffView, { createdBy: authors.createdByPublic, updatedBy: authors.updatedByPublic }, audience);
}

/** A card deposit's provider side as staff and its owner read it. */
export function paymentCardOf(card: PaymentCardState): PaymentCard {
  return {
    provider: card.provider,
    checkoutSessionId: card.checkoutSessionId,
    providerPaymentId: card.providerPaymentId,
    providerStatus: card.providerStatus,
    amountAsked: minorToAmount(card.amountAskedMinor),
    amountReceived: minorToAmount(card.amountReceivedMinor),
    reported:
      card.mismatch === null
        ? null
        : { currency: card.mismatch.currency, amount: minorToAmount(card.mismatch.amountTotalMinor) },
  };
}

/** Reads of the payments read model. */
@Injectable()
export class PaymentReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly purchases: DepositPurchaseDetails,
    private readonly subscriptionPayments: SubscriptionPaymentDetails,
  ) {}

  /** The payment as `audience` reads it; null when there is none. */
  async find(paymentId: number, audience: PaymentAudience): Promise<Payment | null> {
    const rows: PaymentRow[] = await this.dataSource.query(
      `SELECT ${PAYMENT_COLUMNS} FROM ${paymentsWithPurchases(this.purchases, this.subscriptionPayments)} WHERE p.payment_id = $1`,
      [paymentId],
    );
    return rows[0] ? toPayment(rows[0], audience) : null;
  }
}
