import {
  type AuditLog,
  auditFieldText,
  auditSentence,
  defaultNotificationPreferences,
  type NotificationPreferencesChangedData,
} from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../audit';
import { NOTIFICATION_PREFERENCES_AUDIT_MAPPERS } from './notifications.audit';

const USER_UUID = '0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11';
const AT = '2026-11-30T10:00:00.000Z';

function recorded(data: NotificationPreferencesChangedData): RecordedEvent {
  return {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: `notification-preferences-${USER_UUID}`,
    streamVersion: 1,
    type: 'NotificationPreferencesChanged',
    data,
    metadata: { occurredAt: AT } as RecordedEvent['metadata'],
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
}

const CHANGE: NotificationPreferencesChangedData = {
  userUuid: USER_UUID,
  userRole: 'CLIENT',
  changed: ['leadDays', 'lowBalanceThresholdMinor', 'quietHours'],
  channels: [
    { kind: 'transfers', channels: [] },
    { kind: 'payments', channels: ['email', 'portal'] },
  ],
  leadDays: 5,
  lowBalanceThresholdMinor: 750,
  quietHours: { from: '22:00', to: '07:00', timeZone: 'Asia/Jerusalem' },
  previous: defaultNotificationPreferences(),
  changedAt: AT,
};

describe('notification preferences in the activity log (ADR 0105)', () => {
  const draft = NOTIFICATION_PREFERENCES_AUDIT_MAPPERS.NotificationPreferencesChanged(
    recorded(CHANGE),
  ) as AuditEntryDraft;

  it('tells only what changed, under the person, each field catalogued with a Hebrew and an English label', () => {
    expect(draft).toMatchObject({ targetType: 'CLIENT', targetId: USER_UUID, operationType: 'UPDATED' });
    expect(draft.fields).toEqual({
      'channels.transfers': [],
      'channels.payments': ['email', 'portal'],
      reminderLeadDays: 5,
      lowBalanceThreshold: 7.5,
      quietHours: '22:00–07:00 Asia/Jerusalem',
    });
    for (const field of Object.keys(draft.fields)) {
      const text = auditFieldText('CLIENT', field);
      expect(text?.label.he).toBeTruthy();
      expect(text?.label.en).toBeTruthy();
    }
    const onlyChannels = NOTIFICATION_PREFERENCES_AUDIT_MAPPERS.NotificationPreferencesChanged(
      recorded({ ...CHANGE, changed: [] }),
    ) as AuditEntryDraft;
    expect(Object.keys(onlyChannels.fields)).toEqual(['channels.transfers', 'channels.payments']);
  });

  it('reads as a sentence in both languages, a kind switched off as off', () => {
    const entry = {
      id: '1',
      eventType: 'NotificationPreferencesChanged',
      operationType: 'UPDATED',
      target: { type: 'CLIENT', id: USER_UUID, name: 'Maya Levi', email: 'maya@example.com' },
      parent: null,
      createdBy: { id: 'USER-1', name: 'Maya Levi', role: 'CLIENT' },
      createdAt: AT,
      changes: [
        { field: 'channels.payments', oldValue: ['email', 'telegram'], newValue: ['email', 'portal'] },
        { field: 'channels.transfers', oldValue: null, newValue: [] },
        { field: 'lowBalanceThreshold', oldValue: null, newValue: 7.5 },
      ],
    } as unknown as AuditLog;
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(plain(auditSentence(entry, 'en'))).toBe(
      'Maya Levi (maya@example.com): notification preferences changed: channels for payments and receipts e-mail, ' +
        'Telegram → e-mail, portal, channels for transfers received (empty) → off, low-balance threshold (empty) → $7.50',
    );
    expect(plain(auditSentence(entry, 'he'))).toContain(
      'העדפות ההתראות שונו: ערוצי תשלומים וקבלות דוא״ל, טלגרם ← דוא״ל, פורטל',
    );
  });
});
