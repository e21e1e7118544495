import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  CLIENT_NOTIFICATION_PREFERENCE_KINDS,
  defaultNotificationPreferences,
  formatErrorMessage,
  type NotificationPreferences,
  type TelegramLinkStatus,
} from '@kupa/proto';
import { useLangStore } from '../../lib/stores/lang-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';
import { NOTIFICATION_SETTINGS_MESSAGES } from './notification-settings-text';

/** What the form sends back by default: every kind a client may choose for; the staff-only kind never (ADR 0106). */
const clientDefaultChannels = () =>
  Object.fromEntries(
    CLIENT_NOTIFICATION_PREFERENCE_KINDS.map((kind) => [kind, defaultNotificationPreferences().channels[kind]]),
  );

const PREFERENCES = '/api/users/me/notification-preferences';
const TELEGRAM = '/api/users/me/telegram';
/** The profile page is a lazy route: a loaded machine can take longer than the usual wait to show it first. */
const SLOW = { timeout: 15_000 };
const he = NOTIFICATION_SETTINGS_MESSAGES.he;
const en = NOTIFICATION_SETTINGS_MESSAGES.en;

const NOT_LINKED: TelegramLinkStatus = { configured: true, linked: false, username: null, linkedAt: null };
const LINKED: TelegramLinkStatus = {
  configured: true,
  linked: true,
  username: 'dana_l',
  linkedAt: '2026-11-30T09:00:00.000Z',
};

/**
 * The profile's calls: the user, the Telegram status, and the preferences as stored, which a PUT replaces with what
 * it sent (the server's own answer), unless `refuse` answers it with an error.
 */
function profileWith(
  options: {
    preferences?: NotificationPreferences;
    telegram?: TelegramLinkStatus;
    refuse?: (body: unknown) => Response | null;
  } = {},
) {
  let stored = options.preferences ?? defaultNotificationPreferences();
  return mockFetch(({ url, method, body }) => {
    if (url === PREFERENCES && method === 'PUT') {
      const refused = options.refuse?.(body);
      if (refused) return refused;
      const sent = body as Partial<NotificationPreferences>;
      stored = {
        channels: sent.channels!,
        leadDays: sent.leadDays ?? null,
        lowBalanceThresholdMinor: sent.lowBalanceThresholdMinor ?? null,
        quietHours: sent.quietHours ?? null,
      };
      return jsonResponse(200, stored);
    }
    if (url === PREFERENCES) return jsonResponse(200, stored);
    if (url === TELEGRAM) return jsonResponse(200, options.telegram ?? NOT_LINKED);
    return jsonResponse(200, makeUser());
  });
}

const lastPut = (calls: Array<{ url: string; method: string; body: unknown }>) =>
  calls.filter((call) => call.url === PREFERENCES && call.method === 'PUT').at(-1);

describe('my profile: notifications', () => {
  it('shows a box per offered channel only, the defaults ticked, one control for announcements', async () => {
    signInAs();
    profileWith();
    renderApp('/my-profile');
    const table = await screen.findByTestId('notification-channels', {}, SLOW);
    // Renewal results are mail (and Telegram) only: no portal box. Payments are in the portal too (deposits arrived).
    expect(screen.queryByTestId('notification-renewal-results-portal')).toBeNull();
    expect(screen.getByTestId('notification-payments-portal')).toBeChecked();
    expect(screen.getByTestId('notification-payments-email')).toBeChecked();
    // Announcements: on by mail and in the portal, not in Telegram unless asked for.
    expect(screen.getByTestId('notification-announcements-email')).toBeChecked();
    expect(screen.getByTestId('notification-announcements-portal')).toBeChecked();
    expect(screen.getByTestId('notification-announcements-telegram')).not.toBeChecked();
    expect(within(table).getAllByRole('checkbox', { name: /^הודעות והכרזות:/ })).toHaveLength(3);
    // The former switch is gone: announcements are a row of the table now.
    expect(screen.queryByRole('switch', { name: /הודעות והכרזות/ })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'תשלומים וקבלות: דוא״ל' })).toBeChecked();
  });

  it('keeps the Telegram boxes disabled with a hint until a chat is linked, then lets them change', async () => {
    signInAs();
    profileWith({ telegram: NOT_LINKED });
    const { unmount } = renderApp('/my-profile');
    const box = await screen.findByTestId('notification-renewal-reminders-telegram', {}, SLOW);
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(he.telegramNotLinked);
    unmount();

    profileWith({ telegram: LINKED });
    renderApp('/my-profile');
    await waitFor(() => expect(screen.getByTestId('notification-renewal-reminders-telegram')).toBeEnabled());
    expect(screen.queryByTestId('notification-telegram-hint')).toBeNull();
  });

  it('saves the whole setting: channels as ticked, lead days, the threshold in cents, quiet hours', async () => {
    signInAs();
    const { calls } = profileWith({ telegram: LINKED });
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('notification-announcements-email', {}, SLOW));
    await user.click(screen.getByTestId('notification-announcements-telegram'));
    await user.click(screen.getByTestId('notification-payments-telegram'));
    await user.type(screen.getByTestId('notification-lead-days'), '10');
    await user.type(screen.getByTestId('notification-threshold'), '12.5');
    await user.click(screen.getByTestId('notification-quiet'));
    await user.clear(screen.getByTestId('notification-quiet-from'));
    await user.type(screen.getByTestId('notification-quiet-from'), '23:00');
    await user.selectOptions(screen.getByTestId('notification-time-zone'), 'Asia/Jerusalem');
    await user.click(screen.getByTestId('notification-settings-save'));

    expect(await screen.findByTestId('toast', {}, SLOW)).toHaveTextContent(he.saved);
    expect(lastPut(calls)?.body).toEqual({
      channels: {
        ...clientDefaultChannels(),
        announcements: ['telegram', 'portal'],
        payments: ['email', 'portal'],
      },
      leadDays: 10,
      lowBalanceThresholdMinor: 1250,
      quietHours: { from: '23:00', to: '07:00', timeZone: 'Asia/Jerusalem' },
    });
    // What the server answered is what the form now shows.
    expect(screen.getByTestId('notification-threshold')).toHaveValue('12.50');
  });

  it('leaves quiet hours out and sends nulls for empty numbers, which turns them off', async () => {
    signInAs();
    const { calls } = profileWith({
      preferences: {
        ...defaultNotificationPreferences(),
        leadDays: 7,
        lowBalanceThresholdMinor: 500,
        quietHours: { from: '22:00', to: '06:30', timeZone: 'Europe/London' },
      },
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    expect(await screen.findByTestId('notification-lead-days', {}, SLOW)).toHaveValue('7');
    expect(screen.getByTestId('notification-threshold')).toHaveValue('5.00');
    expect(screen.getByTestId('notification-time-zone')).toHaveValue('Europe/London');
    await user.clear(screen.getByTestId('notification-lead-days'));
    await user.clear(screen.getByTestId('notification-threshold'));
    await user.click(screen.getByTestId('notification-quiet'));
    await user.click(screen.getByTestId('notification-settings-save'));
    await waitFor(() =>
      expect(lastPut(calls)?.body).toEqual({
        channels: clientDefaultChannels(),
        leadDays: null,
        lowBalanceThresholdMinor: null,
      }),
    );
  });

  it('refuses out-of-range values on their fields with the catalogue texts, sending nothing', async () => {
    signInAs();
    const { calls } = profileWith();
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.type(await screen.findByTestId('notification-lead-days', {}, SLOW), '61');
    await user.type(screen.getByTestId('notification-threshold'), '1000.01');
    await user.click(screen.getByTestId('notification-quiet'));
    await user.clear(screen.getByTestId('notification-quiet-to'));
    await user.type(screen.getByTestId('notification-quiet-to'), '22:00');
    await user.click(screen.getByTestId('notification-settings-save'));

    expect(screen.getByTestId('notification-lead-days')).toHaveAccessibleDescription(
      formatErrorMessage('error.notification.preferences.lead.days.range', 'he'),
    );
    expect(screen.getByTestId('notification-threshold')).toHaveAccessibleDescription(
      formatErrorMessage('error.notification.preferences.threshold.range', 'he'),
    );
    expect(screen.getByTestId('notification-quiet-error')).toHaveTextContent(
      formatErrorMessage('error.notification.preferences.quiet.hours.invalid', 'he'),
    );
    expect(lastPut(calls)).toBeUndefined();
  });

  it("says the API's refusal of a sign-in alert off by mail and in the portal, and saves once fixed", async () => {
    signInAs();
    const { calls } = profileWith({
      telegram: LINKED,
      refuse: (body) => {
        const channels = (body as NotificationPreferences).channels['new-device'];
        return channels.includes('email') || channels.includes('portal')
          ? null
          : errorResponse(400, 'error.notification.preferences.security.required');
      },
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('notification-new-device-email', {}, SLOW));
    await user.click(screen.getByTestId('notification-new-device-portal'));
    await user.click(screen.getByTestId('notification-settings-save'));
    expect(await screen.findByTestId('notification-settings-error', {}, SLOW)).toHaveTextContent(
      formatErrorMessage('error.notification.preferences.security.required', 'he'),
    );
    // Explained in place, not by a toast as well.
    expect(screen.queryByTestId('toast')).toBeNull();

    await user.click(screen.getByTestId('notification-new-device-portal'));
    expect(screen.queryByTestId('notification-settings-error')).toBeNull();
    await user.click(screen.getByTestId('notification-settings-save'));
    expect(await screen.findByTestId('toast', {}, SLOW)).toHaveTextContent(he.saved);
    expect((lastPut(calls)?.body as NotificationPreferences).channels['new-device']).toEqual(['telegram', 'portal']);
  });

  it('disables Save while saving', async () => {
    signInAs();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockFetch(async ({ url, method, body }) => {
      if (url === PREFERENCES && method === 'PUT') {
        await held;
        return jsonResponse(200, body);
      }
      if (url === PREFERENCES) return jsonResponse(200, defaultNotificationPreferences());
      if (url === TELEGRAM) return jsonResponse(200, NOT_LINKED);
      return jsonResponse(200, makeUser());
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('notification-settings-save', {}, SLOW));
    const save = screen.getByTestId('notification-settings-save');
    await waitFor(() => expect(save).toBeDisabled());
    expect(save).toHaveTextContent(he.saving);
    release();
    await waitFor(() => expect(save).toBeEnabled());
  });

  it('names kinds and channels in English', async () => {
    signInAs();
    useLangStore.getState().setLang('en');
    profileWith();
    renderApp('/my-profile');
    expect(await screen.findByRole('heading', { name: en.title }, SLOW)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Sign-ins from a new device: E-mail' })).toBeChecked();
    expect(screen.getByTestId('notification-telegram-hint')).toHaveTextContent(en.telegramNotLinked);
  });
});
