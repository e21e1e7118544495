import { defaultNotificationPreferences, type NotificationPreferences } from '@kupa/proto';
import { deciderSpec } from '../../../test-support/decider-spec';
import { notificationPreferencesEvolution, recordPreferencesChange } from './notification-preferences.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-30T10:00:00.000Z');
const defaults = defaultNotificationPreferences();
const change = (previous: NotificationPreferences, next: NotificationPreferences) => () =>
  recordPreferencesChange({ userUuid: dana, userRole: 'CLIENT', previous, next, at });

const { given } = deciderSpec(notificationPreferencesEvolution);

describe('notification preferences as events (ADR 0105)', () => {
  it('Given the defaults, When the same setting is saved, Then nothing is recorded', () => {
    given([]).when(change(defaults, defaultNotificationPreferences())).then([]);
  });

  it('Given the defaults, When announcements go portal-only and a threshold is set, Then only those are named', () => {
    const next: NotificationPreferences = {
      ...defaults,
      channels: { ...defaults.channels, announcements: ['portal'] },
      lowBalanceThresholdMinor: 500,
    };
    given([])
      .when(change(defaults, next))
      .then([
        {
          type: 'NotificationPreferencesChanged',
          data: {
            userUuid: dana,
            userRole: 'CLIENT',
            changed: ['lowBalanceThresholdMinor'],
            channels: [{ kind: 'announcements', channels: ['portal'] }],
            leadDays: null,
            lowBalanceThresholdMinor: 500,
            quietHours: null,
            previous: defaults,
            changedAt: at.toISOString(),
          },
        },
      ]);
  });

  it('Given quiet hours, When only their time zone changes, Then the quiet hours are named and no channel', () => {
    const night = { from: '22:00', to: '07:00', timeZone: 'Asia/Jerusalem' };
    const before = { ...defaults, quietHours: night };
    const after = { ...defaults, quietHours: { ...night, timeZone: 'Europe/London' } };
    const [event] = change(before, after)();
    expect(event?.data).toMatchObject({ changed: ['quietHours'], channels: [], quietHours: after.quietHours });
  });

  it('Given a kind switched off everywhere, When saved, Then its channels are an empty list', () => {
    const [event] = change(defaults, { ...defaults, channels: { ...defaults.channels, transfers: [] } })();
    expect(event?.data.channels).toEqual([{ kind: 'transfers', channels: [] }]);
    expect(event?.data.changed).toEqual([]);
  });
});
