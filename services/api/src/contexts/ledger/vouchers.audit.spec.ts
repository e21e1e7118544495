import { auditFieldText, EVENT_SENTENCES, type EventMetadata, type VoucherEventType } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { ALL_VOUCHER_EVENT_TYPES } from './domain/voucher-batch.decider';
import { VOUCHER_AUDIT_MAPPERS } from './vouchers.audit';

const BATCH_ID = '6a1f0c2e-4b52-4bb4-8a8e-3a1d2f0c9e11';
const USER_UUID = '0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11';
const AT = '2026-03-02T10:00:00.000Z';

/** Every field a batch's events carry, so that each mapper finds what it reads. */
const BATCH_FIELDS = {
  batchId: BATCH_ID,
  label: 'Winter fair',
  count: 3,
  amountMinor: 1500,
  generatedAt: AT,
  comment: 'paid in cash at the fair',
  fundedAt: AT,
  transaction: { id: 't-1', postings: [] },
  codeIndex: 2,
  userUuid: USER_UUID,
  paymentId: 134,
  redeemedAt: AT,
};

function draftOf(type: VoucherEventType): AuditEntryDraft {
  const event: RecordedEvent = {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `voucher-batch-${BATCH_ID}`,
    streamVersion: 1,
    type,
    data: BATCH_FIELDS,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
  return VOUCHER_AUDIT_MAPPERS[type](event) as AuditEntryDraft;
}

describe('voucher batch events in the activity log', () => {
  it.each(ALL_VOUCHER_EVENT_TYPES)('%s is an entry of its batch with fields the mapping names', (type) => {
    const draft = draftOf(type);
    expect(draft).toMatchObject({ targetType: 'VOUCHER_BATCH', targetId: BATCH_ID });
    for (const field of Object.keys(draft.fields)) {
      expect({ field, labelled: auditFieldText('VOUCHER_BATCH', field) !== null }).toEqual({ field, labelled: true });
    }
  });

  it.each(ALL_VOUCHER_EVENT_TYPES)("%s's sentence names only values its entry carries", (type) => {
    const draft = draftOf(type);
    const fields = new Set(Object.keys(draft.fields));
    const generic = new Set(['target', 'changes', 'event', ...(draft.parent ? ['parent'] : [])]);
    for (const [, name] of EVENT_SENTENCES[type].en.matchAll(/\{(\w+)\}/g)) {
      expect({ name, filled: generic.has(name) || fields.has(name) }).toEqual({ name, filled: true });
    }
  });

  it('names the batch by its label when generated, and what each code is worth', () => {
    expect(draftOf('VoucherBatchGenerated')).toMatchObject({
      operationType: 'CREATED',
      parent: null,
      fields: { label: 'Winter fair', count: 3, amount: 15 },
    });
  });

  it('records the whole batch entering the liability with the comment, sold or given away', () => {
    for (const type of ['VoucherBatchSold', 'VoucherBatchGivenAway'] as const) {
      expect(draftOf(type)).toMatchObject({
        operationType: 'UPDATED',
        parent: null,
        fields: { amount: 15, comment: 'paid in cash at the fair' },
      });
    }
  });

  it("names a redemption's client, the code by its 1-based number in the codes file, and its payment", () => {
    expect(draftOf('VoucherCodeRedeemed')).toEqual({
      targetType: 'VOUCHER_BATCH',
      targetId: BATCH_ID,
      parent: { type: 'CLIENT', id: USER_UUID },
      operationType: 'UPDATED',
      fields: { codeNumber: '#3', amount: 15, payment: '#134' },
    });
  });
});
