import type { DepositClaimEventType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * A manual-transfer claim reads as an entry under its client: "Dana Cohen: says they sent a manual transfer",
 * "…: manual transfer claim settled by Avi Admin with a manual deposit" (the deposit is its own entry).
 */
const underTheClient = (event: RecordedEvent): AuditEntryDraft => ({
  targetType: 'CLIENT',
  targetId: (event.data as { userUuid: string }).userUuid,
  parent: null,
  operationType: event.type === 'ManualTransferClaimed' ? 'CREATED' : 'UPDATED',
  fields: {},
});

export const DEPOSIT_CLAIM_AUDIT_MAPPERS: Readonly<Record<DepositClaimEventType, AuditMapper>> = Object.freeze({
  ManualTransferClaimed: underTheClient,
  ManualTransferClaimSettled: underTheClient,
  ManualTransferClaimRejected: underTheClient,
});
