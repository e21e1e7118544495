import {
  type BroadcastEventDataByType,
  type BroadcastEventType,
  minorToAmount,
  type NotificationPreferencesEventDataByType,
  type NotificationPreferencesEventType,
  notificationChannelsField,
  type QuietHours,
  type TelegramEventDataByType,
  type TelegramEventType,
} from '@kupa/proto';
import type { AuditEntryDraft, AuditMapper } from '../audit';
import { auditTargetTypeOf } from '../identity';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * How a broadcast reads in the activity log (docs/adr/0091-broadcasts.md): the broadcast is its own target, named by
 * its Hebrew subject; its send says who sent it to how many and how many had switched announcements off, its hand-off
 * that every recipient went to the mail outbox. Who each recipient was is the recipients table's, not the log's.
 */
export const BROADCAST_AUDIT_MAPPERS: Readonly<Record<BroadcastEventType, AuditMapper>> = Object.freeze({
  BroadcastSent: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as BroadcastEventDataByType['BroadcastSent'];
    return {
      targetType: 'BROADCAST',
      targetId: data.broadcastId,
      parent: null,
      operationType: 'CREATED',
      fields: {
        subjectHe: data.subjectHe,
        subjectEn: data.subjectEn,
        recipientCount: data.recipientCount,
        // Left out at zero, so the sentence does not say "0 of whom had switched announcements off".
        ...(data.skippedCount > 0 ? { skippedCount: data.skippedCount } : {}),
      },
    };
  },
  BroadcastHandedOff: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as BroadcastEventDataByType['BroadcastHandedOff'];
    return {
      targetType: 'BROADCAST',
      targetId: data.broadcastId,
      parent: null,
      operationType: 'UPDATED',
      fields: { handedCount: data.handedCount, skippedCount: data.skippedCount },
    };
  },
});

/**
 * How linking Telegram reads in the activity log (docs/adr/0103-telegram-channel.md): under the person, whether
 * Telegram is linked and as which username. The chat id is Telegram's number, of no use to a reader.
 */
export const TELEGRAM_AUDIT_MAPPERS: Readonly<Record<TelegramEventType, AuditMapper>> = Object.freeze({
  TelegramLinked: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as TelegramEventDataByType['TelegramLinked'];
    return {
      targetType: auditTargetTypeOf(data.userRole),
      targetId: data.userUuid,
      parent: null,
      operationType: 'UPDATED',
      fields: { telegramLinked: true, telegramUsername: data.username },
    };
  },
  TelegramUnlinked: (event: RecordedEvent): AuditEntryDraft => {
    const data = event.data as TelegramEventDataByType['TelegramUnlinked'];
    return {
      targetType: auditTargetTypeOf(data.userRole),
      targetId: data.userUuid,
      parent: null,
      operationType: 'UPDATED',
      fields: { telegramLinked: false, telegramUsername: null },
    };
  },
});

/** "22:00–07:00 Asia/Jerusalem": the window in the person's own zone, as they chose it. */
function quietHoursText(quietHours: QuietHours | null): string | null {
  return quietHours === null ? null : `${quietHours.from}–${quietHours.to} ${quietHours.timeZone}`;
}

/**
 * How a change of notification preferences reads in the activity log (ADR 0105): under the person, each setting that
 * changed with its new value (the log shows the value before once it has told one; the event keeps the whole setting
 * before in `previous`).
 */
export const NOTIFICATION_PREFERENCES_AUDIT_MAPPERS: Readonly<Record<NotificationPreferencesEventType, AuditMapper>> =
  Object.freeze({
    NotificationPreferencesChanged: (event: RecordedEvent): AuditEntryDraft => {
      const data = event.data as NotificationPreferencesEventDataByType['NotificationPreferencesChanged'];
      const fields: Record<string, unknown> = {};
      for (const change of data.channels) fields[notificationChannelsField(change.kind)] = change.channels;
      if (data.changed.includes('leadDays')) fields.reminderLeadDays = data.leadDays;
      if (data.changed.includes('lowBalanceThresholdMinor'))
        fields.lowBalanceThreshold =
          data.lowBalanceThresholdMinor === null ? null : minorToAmount(data.lowBalanceThresholdMinor);
      if (data.changed.includes('quietHours')) fields.quietHours = quietHoursText(data.quietHours);
      return {
        targetType: auditTargetTypeOf(data.userRole),
        targetId: data.userUuid,
        parent: null,
        operationType: 'UPDATED',
        fields,
      };
    },
  });
