import { SYSTEM_ACTOR_NAME } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { assert } from '../../../../platform/decider/decider';
import type { PaymentEvent } from '../../domain/ledger.events';
import { PAYMENT_EVENT_TYPES } from '../../domain/ledger.events';

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
  readonly handles = PAYMENT_EVENT_TYPES;

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as PaymentEvent;
      const actor = actorLabelOf(recorded);
      if (event.type === 'PaymentRecorded') {
        const data = event.data;
        await manager.query(
          `INSERT INTO payments (payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator,
             comment, counter_account, correction, sender_profile_id, recipient_profile_id, transfer_id, created_at, created_by,
             updated_at, updated_by, search_text)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $17, $18)`,
          [
            data.paymentId,
            data.userUuid,
            data.userEmail,
            data.amountMinor,
            data.currency,
            data.status,
            data.method,
            data.type,
            data.aggregator,
            data.comment,
            data.counterAccount,
            data.correction,
            data.senderProfileId,
            data.recipientProfileId,
            data.transferId,
            data.createdAt,
            actor,
            paymentSearchText(data),
          ],
        );
      } else {
        const [, affected] = (await manager.query(
          'UPDATE payments SET status = $2, updated_at = $3, updated_by = $4 WHERE payment_id = $1',
          [event.data.paymentId, event.data.status, event.data.changedAt, actor],
        )) as [unknown, number];
        assert(affected === 1, `payment ${event.data.paymentId} must exist before its status changes`);
      }
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE payments');
  }
}
