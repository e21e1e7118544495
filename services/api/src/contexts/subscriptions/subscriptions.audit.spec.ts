import { auditFieldText, type EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { ALL_SUBSCRIPTION_EVENT_TYPES, type SubscriptionEventType } from './domain/subscription.events';
import { SUBSCRIPTIONS_AUDIT_MAPPERS } from './subscriptions.audit';

const SUBSCRIPTION_ID = '55555555-5555-4555-8555-555555555555';
const USER_UUID = '11111111-1111-4111-8111-111111111111';
const AT = '2026-03-02T10:00:00.000Z';

/** Every field the subscription events carry, so that each mapper finds what it reads. */
const FIELDS = {
  subscriptionId: SUBSCRIPTION_ID,
  userUuid: USER_UUID,
  userEmail: 'dana@example.com',
  type: 'REGULAR',
  planId: '44444444-4444-4444-8444-444444444444',
  planName: 'Gold',
  durationInMonths: 1,
  trialDays: null,
  priceMinor: 950,
  listPriceMinor: 1000,
  discountPercent: 5,
  currency: 'USD',
  isRecurrent: true,
  login: 'dana.tv',
  paymentId: 7,
  purchasedAt: AT,
  startDate: AT,
  endDate: AT,
  missingMinor: 250,
  status: 'EXPIRED',
  previousLogin: 'dana.old',
  changedAt: AT,
  reason: 'refused',
};

function draftOf(type: SubscriptionEventType): AuditEntryDraft {
  const event: RecordedEvent = {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `subscription-${SUBSCRIPTION_ID}`,
    streamVersion: 1,
    type,
    data: FIELDS,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
  const mapped = SUBSCRIPTIONS_AUDIT_MAPPERS[type](event);
  if (mapped === null || Array.isArray(mapped)) throw new Error(`${type} should map to one entry`);
  return mapped;
}

describe('subscription events in the activity log', () => {
  it.each(ALL_SUBSCRIPTION_EVENT_TYPES)('%s is a SUBSCRIPTION entry under its client, with labelled fields', (type) => {
    const draft = draftOf(type);
    expect([draft.targetType, draft.targetId, draft.parent]).toEqual([
      'SUBSCRIPTION',
      SUBSCRIPTION_ID,
      { type: 'CLIENT', id: USER_UUID },
    ]);
    for (const field of Object.keys(draft.fields)) {
      expect({ field, labelled: auditFieldText('SUBSCRIPTION', field) !== null }).toEqual({ field, labelled: true });
    }
  });

  it('shows money in dollars and never a password', () => {
    expect(draftOf('SubscriptionPurchased')).toMatchObject({
      operationType: 'CREATED',
      fields: { price: 9.5, discountPercent: 5, login: 'dana.tv', status: 'PENDING' },
    });
    expect(draftOf('SubscriptionRenewalFailed').fields).toEqual({ missingAmount: 2.5 });
    expect(draftOf('SubscriptionPasswordChanged').fields).toEqual({ passwordChangedAt: AT });
  });
});
