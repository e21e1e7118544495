import { auditFieldText, type BulkEventType, EVENT_SENTENCES, type EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { ALL_BULK_EVENT_TYPES } from './domain/bulk-batch.decider';
import { BULK_AUDIT_MAPPERS } from './operations.audit';

const BATCH_ID = '55555555-5555-4555-8555-555555555555';
const AT = '2026-11-29T10:00:00.000Z';

/** Every field a batch's events carry, so that each mapper finds what it reads. */
const BATCH_FIELDS = {
  batchId: BATCH_ID,
  action: 'GOODWILL_CREDIT',
  targetKind: 'CLIENT',
  filter: { statuses: ['ACTIVE'] },
  targetCount: 1234,
  reason: 'Outage of 28 Nov',
  publicNote: 'Sorry for the outage',
  amountMinor: 500,
  days: null,
  actorId: '99999999-9999-4999-8999-999999999999',
  startedAt: AT,
  targetId: '11111111-1111-4111-8111-111111111111',
  resultRef: '134',
  doneAt: AT,
  doneCount: 1230,
  failedCount: 4,
  completedAt: AT,
};

function draftOf(type: BulkEventType): AuditEntryDraft | null {
  const event: RecordedEvent = {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `bulk-batch-${BATCH_ID}`,
    streamVersion: 1,
    type,
    data: BATCH_FIELDS,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
  return BULK_AUDIT_MAPPERS[type](event) as AuditEntryDraft | null;
}

const LOGGED: BulkEventType[] = ['BulkBatchStarted', 'BulkBatchCompleted'];

describe('bulk batch events in the activity log', () => {
  it.each(LOGGED)('%s is an entry of its batch with fields the mapping names', (type) => {
    const draft = draftOf(type) as AuditEntryDraft;
    expect(draft).toMatchObject({ targetType: 'BULK_BATCH', targetId: BATCH_ID, parent: null });
    for (const field of Object.keys(draft.fields)) {
      expect({ field, labelled: auditFieldText('BULK_BATCH', field) !== null }).toEqual({ field, labelled: true });
    }
    const generic = new Set(['target', 'changes', 'event', 'actor']);
    for (const [, name] of EVENT_SENTENCES[type].en.matchAll(/\{(\w+)\}/g)) {
      expect({ name, filled: generic.has(name) || name in draft.fields }).toEqual({ name, filled: true });
    }
  });

  it("keeps each target's outcome out: the target's own event is its entry, so 10,000 rows would repeat them", () => {
    const logged = ALL_BULK_EVENT_TYPES.filter((type) => draftOf(type) !== null);
    expect(logged.sort()).toEqual([...LOGGED].sort());
  });

  it('records what the batch does to how many, the credit in dollars, its reason and its note', () => {
    expect(draftOf('BulkBatchStarted')).toMatchObject({
      operationType: 'CREATED',
      fields: {
        reason: 'Outage of 28 Nov',
        publicNote: 'Sorry for the outage',
        operation: { action: 'GOODWILL_CREDIT', targetKind: 'CLIENT', targetCount: 1234, days: null, amount: 5 },
      },
    });
    expect(draftOf('BulkBatchCompleted')).toMatchObject({
      operationType: 'UPDATED',
      fields: { doneCount: 1230, failedCount: 4 },
    });
  });
});
