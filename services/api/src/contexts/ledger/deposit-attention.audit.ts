import type { DepositAttentionEventDataByType, DepositAttentionEventType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * A large deposit marked seen reads as an entry of its payment under its client: "Payment #134 of Dana Cohen: large
 * deposit marked as seen by Avi Admin" (docs/product.md, Dashboard).
 */
export const DEPOSIT_ATTENTION_AUDIT_MAPPERS: Readonly<Record<DepositAttentionEventType, AuditMapper>> = Object.freeze({
  LargeDepositAcknowledged: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as DepositAttentionEventDataByType['LargeDepositAcknowledged'];
    return {
      targetType: 'PAYMENT',
      targetId: String(data.paymentId),
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: { largeDepositSeenAt: data.acknowledgedAt },
    };
  },
});
