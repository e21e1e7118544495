import { auditFieldText, EVENT_SENTENCES, type EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { CATALOG_AUDIT_MAPPERS } from './catalog.audit';
import { ALL_PAYMENT_PLAN_EVENT_TYPES, type PaymentPlanEventType } from './domain/plan.events';

const PLAN_ID = '44444444-4444-4444-8444-444444444444';
const AT = '2026-03-02T10:00:00.000Z';

/** Every field the catalog events carry, so that each mapper finds what it reads. */
const PLAN_FIELDS = {
  planId: PLAN_ID,
  name: 'Gold',
  durationInMonths: 3,
  priceMinor: 2999,
  currency: 'USD',
  isRecurrent: true,
  description: 'Every channel',
  features: ['HD'],
  cardPaymentAllowed: true,
  status: 'ACTIVE',
  previousStatus: 'INACTIVE',
  createdAt: AT,
  deletedAt: AT,
};

function eventOf(type: PaymentPlanEventType): RecordedEvent {
  return {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `plan-${PLAN_ID}`,
    streamVersion: 1,
    type,
    data: PLAN_FIELDS,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
}

function draftOf(type: PaymentPlanEventType): AuditEntryDraft {
  const mapped = CATALOG_AUDIT_MAPPERS[type](eventOf(type));
  if (mapped === null || Array.isArray(mapped)) throw new Error(`${type} should map to one entry`);
  return mapped;
}

describe('catalog events in the activity log', () => {
  it.each(ALL_PAYMENT_PLAN_EVENT_TYPES)('%s is a PACKAGE entry writing only fields named in both languages', (type) => {
    const draft = draftOf(type);
    expect([draft.targetType, draft.targetId, draft.parent]).toEqual(['PACKAGE', PLAN_ID, null]);
    for (const field of Object.keys(draft.fields)) {
      expect({ field, labelled: auditFieldText('PACKAGE', field) !== null }).toEqual({ field, labelled: true });
    }
  });

  it('writes an empty English text as none, and a given one as it is', () => {
    const withTexts = (texts: { nameEn: string; descriptionEn: string }) =>
      CATALOG_AUDIT_MAPPERS.PaymentPlanUpdated({
        ...eventOf('PaymentPlanUpdated'),
        data: { ...PLAN_FIELDS, ...texts },
      });
    expect(withTexts({ nameEn: '', descriptionEn: '' })).toMatchObject({
      fields: { nameEn: null, descriptionEn: null },
    });
    expect(withTexts({ nameEn: 'Gold', descriptionEn: '' })).toMatchObject({
      fields: { nameEn: 'Gold', descriptionEn: null },
    });
  });

  it('shows the price in dollars and reads the operation from the event', () => {
    expect(draftOf('PaymentPlanCreated')).toMatchObject({ operationType: 'CREATED', fields: { price: 29.99 } });
    expect(draftOf('PaymentPlanUpdated')).toMatchObject({ operationType: 'UPDATED', fields: { price: 29.99 } });
    expect(draftOf('PaymentPlanStatusChanged')).toEqual(
      expect.objectContaining({ operationType: 'UPDATED', fields: { status: 'ACTIVE' } }),
    );
    expect(draftOf('PaymentPlanDeleted')).toEqual(expect.objectContaining({ operationType: 'DELETED', fields: {} }));
  });

  it.each(['PaymentPlanCreated'] as const)("%s's sentence names only values its entry carries", (type) => {
    const fields = new Set(Object.keys(draftOf(type).fields));
    const generic = new Set(['target', 'parent', 'changes', 'event']);
    for (const [, name] of EVENT_SENTENCES[type].en.matchAll(/\{(\w+)\}/g)) {
      expect({ name, known: generic.has(name) || fields.has(name) }).toEqual({ name, known: true });
    }
  });
});
