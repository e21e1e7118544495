import {
  NOTIFICATION_PREFERENCE_KINDS,
  NOTIFICATION_PREFERENCES_EVENT_TYPES,
  type NotificationChannelsChange,
  type NotificationPreferences,
  type NotificationPreferencesChangedData,
  type NotificationPreferencesEvent,
  type NotificationPreferencesEventType,
  type QuietHours,
  type UserRole,
} from '@kupa/proto';
import type { Evolution } from '../../../kernel';

/*
 * A person's notification preferences as events, stream `notification-preferences-{userUuid}` (ADR 0105). The
 * setting itself is the `notification_preferences` row, which older saves wrote without an event: the command reads
 * it under the stream's lock and the decision compares against it, so the stream only counts the changes told.
 */

export const ALL_NOTIFICATION_PREFERENCES_EVENT_TYPES: readonly NotificationPreferencesEventType[] = Object.freeze(
  Object.values(NOTIFICATION_PREFERENCES_EVENT_TYPES),
);

export interface NotificationPreferencesStreamState {
  changes: number;
}

export const notificationPreferencesEvolution: Evolution<
  NotificationPreferencesStreamState,
  NotificationPreferencesEvent
> = {
  initialState: () => ({ changes: 0 }),
  evolve: (state) => ({ changes: state.changes + 1 }),
};

export interface RecordPreferencesChange {
  userUuid: string;
  userRole: UserRole;
  /** The setting before, as its row holds it (the defaults for someone who never saved). */
  previous: NotificationPreferences;
  /** The setting after, already checked by `changePreferences`. */
  next: NotificationPreferences;
  at: Date;
}

/** What a save changed, told once: saving the setting one already has records nothing. */
export function recordPreferencesChange(command: RecordPreferencesChange): NotificationPreferencesEvent[] {
  const { previous, next } = command;
  const channels: NotificationChannelsChange[] = NOTIFICATION_PREFERENCE_KINDS.filter(
    (kind) => !sameList(previous.channels[kind], next.channels[kind]),
  ).map((kind) => ({ kind, channels: [...next.channels[kind]] }));
  const changed: NotificationPreferencesChangedData['changed'] = [];
  if (previous.leadDays !== next.leadDays) changed.push('leadDays');
  if (previous.lowBalanceThresholdMinor !== next.lowBalanceThresholdMinor) changed.push('lowBalanceThresholdMinor');
  if (!sameQuietHours(previous.quietHours, next.quietHours)) changed.push('quietHours');
  if (channels.length === 0 && changed.length === 0) return [];
  return [
    {
      type: 'NotificationPreferencesChanged',
      data: {
        userUuid: command.userUuid,
        userRole: command.userRole,
        changed,
        channels,
        leadDays: next.leadDays,
        lowBalanceThresholdMinor: next.lowBalanceThresholdMinor,
        quietHours: next.quietHours,
        previous,
        changedAt: command.at.toISOString(),
      },
    },
  ];
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((item) => right.includes(item));
}

function sameQuietHours(left: QuietHours | null, right: QuietHours | null): boolean {
  if (left === null || right === null) return left === right;
  return left.from === right.from && left.to === right.to && left.timeZone === right.timeZone;
}
