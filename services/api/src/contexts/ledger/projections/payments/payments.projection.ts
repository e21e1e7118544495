import { PROVIDER_CURRENCY, type PaymentRecordedData, SYSTEM_ACTOR_NAME } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { assert } from '../../../../kernel';
import type { PaymentEvent } from '../../domain/ledger.events';
import { PAYMENT_EVENT_TYPES } from '../../domain/ledger.events';
import { customerAuthorLabel } from '../../domain/payment-authors';

export const PAYMENTS_PROJECTION_NAME = 'payments';

/** Who the payments list shows as the author of a change: the actor's e-mail, or SYSTEM. */
export function actorLabelOf(event: Pick<RecordedEvent, 'metadata'>): string {
  return event.metadata?.actor?.email ?? event.metadata?.actor?.name ?? SYSTEM_ACTOR_NAME;
}

/** What the `keyWord` filter matches, lower-cased once on write so a search needs no function on every row. */
export function paymentSearchText(fields: {
  paymentId: number;
  userEmail: string;
  comment: string | null;
  senderProfileId: string | null;
  recipientProfileId: string | null;
}): string {
  return [fields.paymentId, fields.userEmail, fields.comment, fields.senderProfileId, fields.recipientProfileId]
    .filter((part) => part !== null && part !== '')
    .join(' ')
    .toLowerCase();
}

/** Keeps `payments` in step with the payment streams, inside the append transaction (read-your-writes). */
export class PaymentsProjection implements InlineProjection {
  readonly name = PAYMENTS_PROJECTION_NAME;
  /**
   * A purchase's request is recorded in the instant and by the author of its deposit's `PaymentRecorded`, so it
   * changes nothing of the row; and it may come first in its append (ADR 0068).
   */
  readonly handles = PAYMENT_EVENT_TYPES.filter((type) => type !== 'DepositPurchaseRequested');
  readonly tables = ['payments'];

  /**
   * Consecutive recordings go in as one multi-row insert (a rebuild hands over a thousand events at a time); a
   * status change first flushes what is pending, since it may change a payment recorded in the same batch.
   */
  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    let pending: PendingPayment[] = [];
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as PaymentEvent;
      const actor = actorLabelOf(recorded);
      if (event.type === 'PaymentRecorded') {
        const publicActor = customerAuthorLabel(
          recorded.metadata?.actor,
          event.data.userUuid,
          event.data.senderProfileId,
        );
        pending.push({ data: event.data, actor, publicActor });
        continue;
      }
      await insertPayments(manager, pending);
      pending = [];
      if (event.type === 'DepositPurchaseRequested') continue;
      const publicActor = customerAuthorLabel(recorded.metadata?.actor, event.data.userUuid, null);
      const [, affected] = (await manager.query(...updateOf(event, actor, publicActor))) as [unknown, number];
      assert(affected === 1, `payment ${event.data.paymentId} must exist before it changes`);
    }
    await insertPayments(manager, pending);
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE payments');
  }
}

/** The statement that brings a payment's row up to a change of its stream. */
function updateOf(
  event: Exclude<PaymentEvent, { type: 'PaymentRecorded' | 'DepositPurchaseRequested' }>,
  actor: string,
  publicActor: string,
): [string, unknown[]] {
  switch (event.type) {
    case 'PaymentStatusChanged':
      return [
        `UPDATE payments SET status = $2, updated_at = $3, updated_by = $4, updated_by_public = $5, public_note = $6
          WHERE payment_id = $1`,
        [event.data.paymentId, event.data.status, event.data.changedAt, actor, publicActor, event.data.publicNote],
      ];
    case 'CashierInvoiceOpened': {
      const { paymentId, provider, invoiceId, invoiceUrl, payCurrency, amountAskedMinor } = event.data;
      return [
        `UPDATE payments SET cashier_provider = $2, cashier_invoice_id = $3, cashier_invoice_url = $4,
            cashier_pay_currency = $5, amount_asked_minor = $6, amount_received_minor = 0, updated_by = $7,
            updated_by_public = $8
          WHERE payment_id = $1`,
        [paymentId, provider, invoiceId, invoiceUrl, payCurrency, amountAskedMinor, actor, publicActor],
      ];
    }
    // A provider's report, from the cashier or the card provider: the same columns, kept where the report is silent.
    case 'CashierPaymentReported':
    case 'CardPaymentReported': {
      const { paymentId, status, reportedAt, providerPaymentId, providerStatus, amountReceivedMinor } = event.data;
      // The amount is what is on the books once anything arrived (the payment decider's evolve says the same).
      return [
        `UPDATE payments SET status = $2, updated_at = $3, updated_by = $4, updated_by_public = $5,
            provider_payment_id = COALESCE($6, provider_payment_id), provider_status = COALESCE($7, provider_status),
            amount_received_minor = $8::bigint,
            amount_minor = CASE WHEN $8::bigint > 0 THEN $8::bigint ELSE amount_minor END,
            bonus_payment_id = COALESCE($9::bigint, bonus_payment_id),
            review_currency = CASE WHEN $10::bigint IS NULL THEN review_currency ELSE $11 END,
            review_amount_minor = COALESCE($10::bigint, review_amount_minor)
          WHERE payment_id = $1`,
        [
          paymentId,
          status,
          reportedAt,
          actor,
          publicActor,
          providerPaymentId,
          providerStatus,
          amountReceivedMinor,
          event.data.bonusPaymentId ?? null,
          ...reviewOf(event),
        ],
      ];
    }
    case 'CardCheckoutOpened': {
      const { paymentId, provider, checkoutSessionId, amountAskedMinor } = event.data;
      return [
        `UPDATE payments SET card_provider = $2, card_checkout_session_id = $3, provider_status = 'unpaid',
            amount_asked_minor = $4, amount_received_minor = 0, updated_by = $5, updated_by_public = $6
          WHERE payment_id = $1`,
        [paymentId, provider, checkoutSessionId, amountAskedMinor, actor, publicActor],
      ];
    }
    case 'PaymentRefundedToBalance':
      return [
        `UPDATE payments SET refunded_by_payment_id = $2, updated_at = $3, updated_by = $4, updated_by_public = $5
          WHERE payment_id = $1`,
        [event.data.paymentId, event.data.refundPaymentId, event.data.refundedAt, actor, publicActor],
      ];
    case 'AmbassadorBonusRaised':
      return [
        `UPDATE payments SET amount_minor = $2, updated_at = $3, updated_by = $4, updated_by_public = $5
          WHERE payment_id = $1`,
        [event.data.paymentId, event.data.amountMinor, event.data.raisedAt, actor, publicActor],
      ];
    case 'DepositPurchaseCompleted':
    case 'DepositPurchaseFailed': {
      // What the deposit bought is the subscriptions' read model (ADR 0068); its payment shows that it changed.
      const at = event.type === 'DepositPurchaseCompleted' ? event.data.completedAt : event.data.failedAt;
      return [
        `UPDATE payments SET updated_at = $2, updated_by = $3, updated_by_public = $4 WHERE payment_id = $1`,
        [event.data.paymentId, at, actor, publicActor],
      ];
    }
  }
}

interface PendingPayment {
  data: PaymentRecordedData;
  /** The author as staff see it. */
  actor: string;
  /** The author as the payment's owner sees it. */
  publicActor: string;
}

async function insertPayments(manager: EntityManager, rows: readonly PendingPayment[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <Value>(pick: (data: PaymentRecordedData) => Value) => rows.map(({ data }) => pick(data));
  await manager.query(
    `INSERT INTO payments (payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator,
       comment, counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id, created_at, created_by,
       updated_at, updated_by, search_text, public_note, created_by_public, updated_by_public, bonus_payment_id,
       bonus_for_payment_id, discount_percent)
     SELECT payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator, comment,
       counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id, created_at, actor, created_at,
       actor, search_text, public_note, public_actor, public_actor, bonus_payment_id, bonus_for_payment_id,
       discount_percent
       FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::text[], $11::text[], $12::boolean[], $13::text[], $14::text[], $15::uuid[], $16::timestamptz[],
         $17::text[], $18::text[], $19::text[], $20::text[], $21::bigint[], $22::bigint[], $23::smallint[])
         AS input(payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator, comment,
           counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id, created_at, actor, search_text,
           public_note, public_actor, bonus_payment_id, bonus_for_payment_id, discount_percent)`,
    [
      column((data) => data.paymentId),
      column((data) => data.userUuid),
      column((data) => data.userEmail),
      column((data) => data.amountMinor),
      column((data) => data.currency),
      column((data) => data.status),
      column((data) => data.method),
      column((data) => data.type),
      column((data) => data.aggregator),
      column((data) => data.comment),
      column((data) => data.counterAccount),
      column((data) => data.correction),
      column((data) => data.senderProfileId),
      column((data) => data.recipientProfileId),
      column((data) => data.transferId),
      column((data) => data.createdAt),
      rows.map(({ actor }) => actor),
      column((data) => paymentSearchText(data)),
      column((data) => data.publicNote),
      rows.map(({ publicActor }) => publicActor),
      column((data) => data.bonusPaymentId ?? null),
      column((data) => data.bonusForPaymentId ?? null),
      column((data) => data.discountPercent),
    ],
  );
}

/** What a report that put the payment in REVIEW says the provider reported: amount and currency, or two nulls. */
function reviewOf(event: Extract<PaymentEvent, { type: 'CashierPaymentReported' | 'CardPaymentReported' }>) {
  if (event.type === 'CashierPaymentReported')
    return event.data.heldForReviewMinor === undefined
      ? [null, null]
      : [event.data.heldForReviewMinor, PROVIDER_CURRENCY];
  const mismatch = event.data.mismatch;
  return mismatch ? [mismatch.amountTotalMinor, mismatch.currency] : [null, null];
}
