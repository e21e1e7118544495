import type { EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { diffFields } from './field-changes';
import { describeUnmappedEvent } from './unmapped-event';

describe('field-level changes', () => {
  it('starts a CREATED entry from nothing and leaves out fields without a value', () => {
    const diff = diffFields('CREATED', { stale: 'left from before' }, { name: 'Gold', price: 1000, note: null });
    expect(diff.changes).toEqual([
      { field: 'name', oldValue: null, newValue: 'Gold' },
      { field: 'price', oldValue: null, newValue: 1000 },
    ]);
    expect(diff.after).toEqual({ name: 'Gold', price: 1000 });
  });

  it('lists only the fields an UPDATED entry really changed, comparing nested values by content', () => {
    const before = { name: 'Gold', price: 1000, features: { hd: true, screens: 2 } };
    const diff = diffFields('UPDATED', before, { name: 'Gold', price: 1200, features: { screens: 2, hd: true } });
    expect(diff.changes).toEqual([{ field: 'price', oldValue: 1000, newValue: 1200 }]);
    expect(diff.after).toEqual({ name: 'Gold', price: 1200, features: { hd: true, screens: 2 } });
  });

  it('forgets a field set to null and shows it going from its value to null', () => {
    const diff = diffFields('UPDATED', { 'note.1': 'call back' }, { 'note.1': null });
    expect(diff.changes).toEqual([{ field: 'note.1', oldValue: 'call back', newValue: null }]);
    expect(diff.after).toEqual({});
  });

  it('ends a DELETED entry in nothing, old values from the known state first', () => {
    const diff = diffFields('DELETED', { name: 'Gold', price: 1200 }, { name: 'Stale name', reason: 'retired' });
    expect(diff.changes).toEqual([
      { field: 'name', oldValue: 'Gold', newValue: null },
      { field: 'price', oldValue: 1200, newValue: null },
      { field: 'reason', oldValue: 'retired', newValue: null },
    ]);
    expect(diff.after).toBeNull();
  });

  it('stores dates and bigints as the JSON a later read returns', () => {
    const diff = diffFields('CREATED', null, { at: new Date('2026-01-02T03:04:05Z'), amountMinor: 12n });
    expect(diff.after).toEqual({ at: '2026-01-02T03:04:05.000Z', amountMinor: '12' });
  });
});

describe('events without a mapper', () => {
  const metadata = {} as EventMetadata;
  const event = (streamId: string, streamVersion: number, type: string, data: unknown): RecordedEvent => ({
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId,
    streamVersion,
    type,
    data,
    metadata,
    recordedAt: new Date(0),
    hash: '',
    schemaVersion: 1,
  });

  it('takes the target from the stream category and the parent from the user the payload names', () => {
    const draft = describeUnmappedEvent(
      event('payment-42', 1, 'PaymentRecorded', { paymentId: 42, userUuid: 'u-1', amountMinor: 500 }),
    );
    expect(draft).toMatchObject({
      targetType: 'PAYMENT',
      targetId: '42',
      parent: { type: 'CLIENT', id: 'u-1' },
      operationType: 'CREATED',
    });
  });

  it('drops secret-looking fields at any depth', () => {
    const draft = describeUnmappedEvent(
      event('subscription-s1', 2, 'SubscriptionCredentialsSet', {
        login: 'viewer.one',
        password: 'x',
        passwordHash: 'y',
        provider: { apiToken: 'z', region: 'eu', clientSecret: 's' },
      }),
    );
    expect(draft.fields).toEqual({ login: 'viewer.one', provider: { region: 'eu' } });
    expect(draft.operationType).toBe('UPDATED');
  });

  it('reads deletions from the event name and classifies unknown streams by payload ids', () => {
    expect(describeUnmappedEvent(event('plan-7', 3, 'PlanDeleted', {}))).toMatchObject({
      targetType: 'PACKAGE',
      operationType: 'DELETED',
    });
    expect(describeUnmappedEvent(event('import-9', 1, 'Imported', { subscriptionId: 's-9' }))).toMatchObject({
      targetType: 'SUBSCRIPTION',
      targetId: 's-9',
      parent: null,
    });
    expect(describeUnmappedEvent(event('import-9', 2, 'Touched', 'raw'))).toMatchObject({
      targetType: 'CLIENT',
      targetId: 'import-9',
      fields: { value: 'raw' },
    });
  });
});
