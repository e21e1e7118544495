import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { defaultNotificationPreferences, formatErrorMessage, type TelegramLinkStatus } from '@kupa/proto';
import { browser } from '../../lib/browser';
import { useLangStore } from '../../lib/stores/lang-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';
import { NOTIFICATION_SETTINGS_MESSAGES } from './notification-settings-text';

const TELEGRAM = '/api/users/me/telegram';
const LINK_TOKEN = '/api/users/me/telegram/link-token';
const DEEP_LINK = 'https://t.me/kupa_bot?start=AbCdEfGhIjKlMnOpQrStUvWxYz012345';
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

/** The profile's calls, the Telegram status answered by `status()` each time it is asked. */
function profileWith(status: () => TelegramLinkStatus, linkToken: () => Response = () => tokenResponse(10)) {
  return mockFetch(({ url, method }) => {
    if (url === LINK_TOKEN) return linkToken();
    if (url === TELEGRAM && method === 'DELETE') return jsonResponse(204);
    if (url === TELEGRAM) return jsonResponse(200, status());
    if (url === '/api/users/me/notification-preferences') return jsonResponse(200, defaultNotificationPreferences());
    return jsonResponse(200, makeUser());
  });
}

function tokenResponse(validMinutes: number): Response {
  return jsonResponse(201, {
    deepLink: DEEP_LINK,
    expiresAt: new Date(Date.now() + validMinutes * 60_000).toISOString(),
  });
}

/** A stand-in for the tab the click opens, recording where the card sends it. */
function watchTabs() {
  const tab = { go: vi.fn<(url: string) => void>(), close: vi.fn<() => void>() };
  const openTab = vi.spyOn(browser, 'openTab').mockReturnValue(tab);
  return { tab, openTab };
}

const statusCalls = (calls: Array<{ url: string; method: string }>) =>
  calls.filter((call) => call.url === TELEGRAM && call.method === 'GET').length;

describe('my profile: the Telegram card', () => {
  it('says when the service has no Telegram, and offers no link', async () => {
    signInAs();
    profileWith(() => ({ ...NOT_LINKED, configured: false }));
    renderApp('/my-profile');
    expect(await screen.findByTestId('telegram-not-configured', {}, SLOW)).toHaveTextContent(he.telegramNotConfigured);
    expect(screen.queryByTestId('telegram-link')).toBeNull();
    // The Notifications section's Telegram boxes say the same.
    expect(await screen.findByTestId('notification-telegram-hint', {}, SLOW)).toHaveTextContent(he.telegramOff);
  });

  it('links: opens the deep link in a new tab, asks for Start, and polls until the bot linked the chat', async () => {
    signInAs();
    let linked = false;
    const { calls } = profileWith(() => (linked ? LINKED : NOT_LINKED));
    const { tab, openTab } = watchTabs();
    const user = userEvent.setup();
    renderApp('/my-profile');
    expect(await screen.findByTestId('telegram-none', {}, SLOW)).toHaveTextContent(he.telegramNone);

    await user.click(screen.getByTestId('telegram-link'));
    expect(openTab).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(tab.go).toHaveBeenCalledWith(DEEP_LINK));
    const waiting = await screen.findByTestId('telegram-waiting', {}, SLOW);
    expect(waiting).toHaveTextContent('Start');
    expect(screen.getByTestId('telegram-open')).toHaveAttribute('href', DEEP_LINK);
    expect(screen.getByTestId('telegram-open')).toHaveAttribute('target', '_blank');
    expect(screen.queryByTestId('telegram-link')).toBeNull();

    // The person presses Start: the next poll finds the chat linked.
    const asked = statusCalls(calls);
    linked = true;
    expect(await screen.findByTestId('telegram-username', {}, { timeout: 6000 })).toHaveTextContent('@dana_l');
    expect(statusCalls(calls)).toBeGreaterThan(asked);
    expect(screen.getByTestId('telegram-linked-at')).toHaveTextContent('2026');
    expect(screen.queryByTestId('telegram-waiting')).toBeNull();
    // Linked, the Notifications section's Telegram boxes can be changed.
    expect(screen.getByTestId('notification-announcements-telegram')).toBeEnabled();

    // No more polling once linked.
    const afterLink = statusCalls(calls);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(statusCalls(calls)).toBe(afterLink);
  }, 15_000);

  it('stops waiting when the link expires unused, and offers a new one', async () => {
    signInAs();
    const { calls } = profileWith(
      () => NOT_LINKED,
      () => tokenResponse(0.02),
    );
    watchTabs();
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('telegram-link', {}, SLOW));
    expect(await screen.findByTestId('telegram-expired', {}, SLOW)).toHaveTextContent(he.telegramExpired);
    expect(screen.queryByTestId('telegram-waiting')).toBeNull();
    const afterExpiry = statusCalls(calls);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(statusCalls(calls)).toBe(afterExpiry);
    await user.click(screen.getByTestId('telegram-link'));
    expect(await screen.findByTestId('telegram-waiting', {}, SLOW)).toBeInTheDocument();
    expect(calls.filter((call) => call.url === LINK_TOKEN)).toHaveLength(2);
  }, 15_000);

  it('closes the opened tab and says why when no link can be had', async () => {
    signInAs();
    profileWith(
      () => NOT_LINKED,
      () => errorResponse(503, 'error.telegram.unavailable'),
    );
    const { tab } = watchTabs();
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('telegram-link', {}, SLOW));
    expect(await screen.findByTestId('toast', {}, SLOW)).toHaveTextContent(
      formatErrorMessage('error.telegram.unavailable', 'he'),
    );
    expect(tab.close).toHaveBeenCalled();
    expect(tab.go).not.toHaveBeenCalled();
    expect(screen.getByTestId('telegram-link')).toBeEnabled();
  });

  it('unlinks only after the confirmation', async () => {
    signInAs();
    let linked = true;
    const { calls } = mockFetch(({ url, method }) => {
      if (url === TELEGRAM && method === 'DELETE') {
        linked = false;
        return jsonResponse(204);
      }
      if (url === TELEGRAM) return jsonResponse(200, linked ? LINKED : NOT_LINKED);
      if (url === '/api/users/me/notification-preferences') return jsonResponse(200, defaultNotificationPreferences());
      return jsonResponse(200, makeUser());
    });
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('telegram-unlink', {}, SLOW));
    await user.click(await screen.findByTestId('telegram-unlink-cancel', {}, SLOW));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('telegram-unlink'));
    await user.click(await screen.findByTestId('telegram-unlink-confirm', {}, SLOW));
    expect(await screen.findByTestId('telegram-none', {}, SLOW)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
    expect(screen.getByTestId('toast')).toHaveTextContent(he.telegramUnlinked);
  });

  it('shows the linked account in English, the username isolated left to right', async () => {
    signInAs();
    useLangStore.getState().setLang('en');
    profileWith(() => LINKED);
    renderApp('/my-profile');
    const name = await screen.findByTestId('telegram-username', {}, SLOW);
    expect(name).toHaveTextContent('Linked to @dana_l');
    expect(name.querySelector('bdi')).toHaveTextContent('@dana_l');
    expect(screen.getByTestId('telegram-linked-at')).toHaveTextContent('Linked on');
    expect(screen.getByTestId('telegram-unlink')).toHaveTextContent(en.telegramUnlink);
  });
});
