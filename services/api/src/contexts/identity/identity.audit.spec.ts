import { auditFieldText, EVENT_SENTENCES, type EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { ALL_USER_EVENT_TYPES } from './domain/user.events';
import { IDENTITY_AUDIT_MAPPERS } from './identity.audit';

const USER_UUID = '0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11';
const AT = '2026-03-02T10:00:00.000Z';

/** Every field any identity event carries, so that each mapper finds what it reads. */
const EVERY_FIELD = {
  userUuid: USER_UUID,
  userRole: 'CLIENT',
  role: 'CLIENT',
  previousRole: 'AMBASSADOR',
  status: 'ACTIVE',
  previousStatus: 'BLOCKED',
  email: 'dana@example.com',
  firstName: 'Dana',
  lastName: 'Cohen',
  profileId: '01234567',
  language: 'he',
  referrerProfileId: '07654321',
  noteId: '5f1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
  text: 'Called about the invoice',
  ...Object.fromEntries(
    ['registeredAt', 'createdAt', 'confirmedAt', 'changedAt', 'resetAt', 'setAt', 'rejectedAt', 'usedAt', 'addedAt']
      .concat(['deletedAt', 'requestedAt', 'enabledAt', 'disabledAt'])
      .map((field) => [field, AT]),
  ),
};

function recorded(type: string): RecordedEvent {
  return {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `user-${USER_UUID}`,
    streamVersion: 2,
    type,
    data: EVERY_FIELD,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
}

function draftsOf(type: (typeof ALL_USER_EVENT_TYPES)[number]): AuditEntryDraft[] {
  const mapped = IDENTITY_AUDIT_MAPPERS[type](recorded(type));
  return mapped === null ? [] : Array.isArray(mapped) ? mapped : [mapped];
}

describe('identity events in the activity log', () => {
  it.each(ALL_USER_EVENT_TYPES)('%s writes only fields the shared mapping names in both languages', (type) => {
    const drafts = draftsOf(type);
    expect(drafts.length).toBeGreaterThan(0);
    for (const draft of drafts) {
      for (const field of Object.keys(draft.fields)) {
        const text = auditFieldText(draft.targetType, field);
        expect({ field, labelled: text !== null }).toEqual({ field, labelled: true });
      }
    }
  });

  it.each(ALL_USER_EVENT_TYPES)("%s's sentence names only values its entry carries", (type) => {
    const fields = new Set(draftsOf(type).flatMap((draft) => Object.keys(draft.fields)));
    // Every entry has an actor (the staff member, or System), so {actor} always fills.
    const generic = new Set(['target', 'parent', 'changes', 'event', 'actor']);
    for (const [, name] of EVENT_SENTENCES[type].en.matchAll(/\{(\w+)\}/g)) {
      expect({ name, known: generic.has(name) || fields.has(name) }).toEqual({ name, known: true });
    }
  });
});
