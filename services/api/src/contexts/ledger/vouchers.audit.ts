import { minorToAmount, type VoucherEventDataByType, type VoucherEventType } from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * How a voucher batch reads in the activity log (docs/adr/0089-prepaid-vouchers.md): the batch is its own target,
 * named by its label; its generation says how many codes worth how much, its funding how much entered the liability
 * and why. A redemption sits under its client and names the code by its number in the codes file, never the code: a
 * code in the log would be money anyone reading it could spend.
 */
export const VOUCHER_AUDIT_MAPPERS: Readonly<Record<VoucherEventType, AuditMapper>> = Object.freeze({
  VoucherBatchGenerated: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as VoucherEventDataByType['VoucherBatchGenerated'];
    return {
      targetType: 'VOUCHER_BATCH',
      targetId: data.batchId,
      parent: null,
      operationType: 'CREATED',
      fields: { label: data.label, count: data.count, amount: minorToAmount(data.amountMinor) },
    };
  },
  VoucherBatchSold: (event: RecordedEvent): AuditEntryDraft => batchFunded(event),
  VoucherBatchGivenAway: (event: RecordedEvent): AuditEntryDraft => batchFunded(event),
  VoucherCodeRedeemed: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as VoucherEventDataByType['VoucherCodeRedeemed'];
    return {
      targetType: 'VOUCHER_BATCH',
      targetId: data.batchId,
      parent: { type: 'CLIENT', id: data.userUuid },
      operationType: 'UPDATED',
      fields: {
        // 1-based, as the codes file lists them (its first code is row 1).
        codeNumber: `#${data.codeIndex + 1}`,
        amount: minorToAmount(data.amountMinor),
        payment: `#${data.paymentId}`,
      },
    };
  },
});

/** Sold or given away: the whole batch's worth, and the comment staff gave (who bought it, or why it is a gift). */
function batchFunded(event: RecordedEvent): AuditEntryDraft {
  const data = event.data as VoucherEventDataByType['VoucherBatchSold'];
  return {
    targetType: 'VOUCHER_BATCH',
    targetId: data.batchId,
    parent: null,
    operationType: 'UPDATED',
    fields: { amount: minorToAmount(data.amountMinor), comment: data.comment },
  };
}
