import { defaultNotificationPreferences, lowBalanceCrossed } from '@kupa/proto';
import { DomainError } from '../../../kernel';
import { changePreferences, channelsFor, mayGoAt, preferencesFrom, reminderDaysFor } from './notification-preferences';

const defaults = defaultNotificationPreferences();

describe('the channels of a notice', () => {
  it('Given the defaults and no Telegram chat, When a reminder goes, Then by e-mail and in the portal', () => {
    expect(channelsFor('renewal-reminders', defaults, { telegramLinked: false })).toEqual(['email', 'portal']);
  });

  it('Given the defaults and a linked chat, When a reminder goes, Then on all three; an announcement not in Telegram', () => {
    expect(channelsFor('renewal-reminders', defaults, { telegramLinked: true })).toEqual([
      'email',
      'telegram',
      'portal',
    ]);
    expect(channelsFor('announcements', defaults, { telegramLinked: true })).toEqual(['email', 'portal']);
  });

  it('Given reminders switched off for e-mail, When one goes, Then only in the portal', () => {
    const chosen = changePreferences(defaults, { channels: { 'renewal-reminders': ['portal'] } });
    expect(channelsFor('renewal-reminders', chosen, { telegramLinked: false })).toEqual(['portal']);
  });
});

describe('changing the preferences', () => {
  it('Given the defaults, When one kind changes, Then the others keep theirs, in the catalogue’s channel order', () => {
    const changed = changePreferences(defaults, { channels: { announcements: ['portal', 'email', 'telegram'] } });
    expect(changed.channels.announcements).toEqual(['email', 'telegram', 'portal']);
    expect(changed.channels.payments).toEqual(defaults.channels.payments);
  });

  it('Given a kind not offered in the portal, When the portal is chosen for it, Then it is refused', () => {
    expect(() => changePreferences(defaults, { channels: { 'renewal-results': ['portal'] } })).toThrow(
      new DomainError('error.notification.preferences.channel.not.offered'),
    );
  });

  it('Given staff alerts (ADR 0106), When a client chooses for them, Then it is refused; a staff member may switch them off', () => {
    expect(defaults.channels['staff-alerts']).toEqual(['telegram']);
    expect(() => changePreferences(defaults, { channels: { 'staff-alerts': ['telegram'] } })).toThrow(
      new DomainError('error.notification.preferences.channel.not.offered'),
    );
    const off = changePreferences(defaults, { channels: { 'staff-alerts': [] } }, { staff: true });
    expect(channelsFor('staff-alerts', off, { telegramLinked: true })).toEqual([]);
    expect(() => changePreferences(defaults, { channels: { 'staff-alerts': ['email'] } }, { staff: true })).toThrow(
      new DomainError('error.notification.preferences.channel.not.offered'),
    );
  });

  it('Given sign-in alerts, When e-mail and the portal are both switched off, Then it is refused; Telegram is not enough', () => {
    expect(() => changePreferences(defaults, { channels: { 'new-device': ['telegram'] } })).toThrow(
      new DomainError('error.notification.preferences.security.required'),
    );
    expect(changePreferences(defaults, { channels: { 'new-device': ['portal'] } }).channels['new-device']).toEqual([
      'portal',
    ]);
  });

  it('Given an unknown kind, When sent, Then it is refused as bad input', () => {
    expect(() => changePreferences(defaults, { channels: { gossip: ['email'] } })).toThrow(
      new DomainError('error.validation.failed'),
    );
  });

  it('Given lead days 0, 61 or 2.5, When sent, Then refused; 1 and 60 are kept', () => {
    for (const leadDays of [0, 61, 2.5])
      expect(() => changePreferences(defaults, { leadDays })).toThrow(
        new DomainError('error.notification.preferences.lead.days.range'),
      );
    expect(changePreferences(defaults, { leadDays: 1 }).leadDays).toBe(1);
    expect(changePreferences(defaults, { leadDays: 60 }).leadDays).toBe(60);
  });

  it('Given a threshold of 0 or over $1,000, When sent, Then refused; null switches the notice off', () => {
    for (const lowBalanceThresholdMinor of [0, 100_001])
      expect(() => changePreferences(defaults, { lowBalanceThresholdMinor })).toThrow(
        new DomainError('error.notification.preferences.threshold.range'),
      );
    const on = changePreferences(defaults, { lowBalanceThresholdMinor: 500 });
    expect(changePreferences(on, { lowBalanceThresholdMinor: null }).lowBalanceThresholdMinor).toBeNull();
  });

  it('Given quiet hours with equal ends, a bad time or an unknown zone, When sent, Then each has its code', () => {
    expect(() =>
      changePreferences(defaults, { quietHours: { from: '22:00', to: '22:00', timeZone: 'Asia/Jerusalem' } }),
    ).toThrow(new DomainError('error.notification.preferences.quiet.hours.invalid'));
    expect(() =>
      changePreferences(defaults, { quietHours: { from: '24:00', to: '07:00', timeZone: 'Asia/Jerusalem' } }),
    ).toThrow(new DomainError('error.notification.preferences.quiet.hours.invalid'));
    expect(() =>
      changePreferences(defaults, { quietHours: { from: '22:00', to: '07:00', timeZone: 'Mars/Olympus' } }),
    ).toThrow(new DomainError('error.notification.preferences.time.zone.invalid'));
  });

  it('Given stored choices from before a kind existed, When read, Then that kind has its defaults', () => {
    const stored = { channels: { announcements: [] } } as never;
    const read = preferencesFrom(stored);
    expect(read.channels.announcements).toEqual([]);
    expect(read.channels['low-balance']).toEqual(defaults.channels['low-balance']);
  });
});

describe('quiet hours', () => {
  const night = { from: '22:00', to: '07:00', timeZone: 'Asia/Jerusalem' };

  it('Given 22:00–07:00 in Jerusalem (UTC+2 in winter), When a Telegram message is due at 23:30 local, Then it waits until 07:00', () => {
    expect(mayGoAt('telegram', night, new Date('2026-12-01T21:30:00Z')).toISOString()).toBe('2026-12-02T05:00:00.000Z');
  });

  it('Given the same window, When due at 03:10 local, past midnight, Then it waits until 07:00 the same morning', () => {
    expect(mayGoAt('telegram', night, new Date('2026-12-02T01:10:00Z')).toISOString()).toBe('2026-12-02T05:00:00.000Z');
  });

  it('Given the same window, When due at 12:00 local, Then it goes at once', () => {
    const noon = new Date('2026-12-02T10:00:00Z');
    expect(mayGoAt('telegram', night, noon)).toEqual(noon);
  });

  it('Given a window inside one day (13:00–15:00), When due at 14:00 local, Then it waits until 15:00', () => {
    const siesta = { from: '13:00', to: '15:00', timeZone: 'Asia/Jerusalem' };
    expect(mayGoAt('telegram', siesta, new Date('2026-12-02T12:00:00Z')).toISOString()).toBe(
      '2026-12-02T13:00:00.000Z',
    );
  });

  it('Given quiet hours, When a mail or a portal notice is due inside them, Then it goes at once', () => {
    const late = new Date('2026-12-01T21:30:00Z');
    expect(mayGoAt('email', night, late)).toEqual(late);
    expect(mayGoAt('portal', night, late)).toEqual(late);
  });
});

describe('the low-balance crossing', () => {
  it('Given a $5 threshold, When the balance goes from $6 to $4, Then a notice is due', () => {
    expect(lowBalanceCrossed(600, 400, 500)).toBe(true);
  });

  it('Given a balance already under the threshold, When it falls further, Then no second notice', () => {
    expect(lowBalanceCrossed(400, 100, 500)).toBe(false);
  });

  it('Given it came back to exactly the threshold, When it falls under again, Then a notice is due again', () => {
    expect(lowBalanceCrossed(500, 499, 500)).toBe(true);
  });

  it('Given no threshold, When the balance falls to zero, Then nothing', () => {
    expect(lowBalanceCrossed(10_000, 0, null)).toBe(false);
  });
});

describe('personal reminder days', () => {
  it('Given the installation’s 7, 3, 1 and no lead days, When reminded, Then 7, 3, 1', () => {
    expect(reminderDaysFor([7, 3, 1], null)).toEqual([7, 3, 1]);
  });

  it('Given lead days 14, When reminded, Then 14, 7, 3, 1; lead days 2: 2, 1', () => {
    expect(reminderDaysFor([7, 3, 1], 14)).toEqual([14, 7, 3, 1]);
    expect(reminderDaysFor([7, 3, 1], 2)).toEqual([2, 1]);
  });
});
