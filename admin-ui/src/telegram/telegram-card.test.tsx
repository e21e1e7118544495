import { type TelegramLinkStatus } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { TelegramCard } from './telegram-card';

const DEEP_LINK = 'https://t.me/kupa_bot?start=AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const NOT_LINKED: TelegramLinkStatus = { configured: true, linked: false, username: null, linkedAt: null };
const LINKED: TelegramLinkStatus = {
  configured: true,
  linked: true,
  username: 'avi_staff',
  linkedAt: '2026-11-30T09:00:00.000Z',
};

/** The tab the click opens, cut off from the console and then sent to the deep link. */
function watchTabs() {
  const tab = { opener: {} as unknown, location: { replace: vi.fn<(url: string) => void>() }, close: vi.fn() };
  const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  return { tab, open };
}

beforeEach(() => signInAs('MANAGER'));

describe("a staff member's Telegram card (staff alerts, ADR 0103)", () => {
  it('links through the deep link in a new tab and polls until the bot linked the chat', async () => {
    let linked = false;
    const { calls } = mockFetch({
      'GET /api/users/me/telegram': () => json(200, linked ? LINKED : NOT_LINKED),
      'POST /api/users/me/telegram/link-token': () =>
        json(201, { deepLink: DEEP_LINK, expiresAt: new Date(Date.now() + 600_000).toISOString() }),
    });
    const { tab, open } = watchTabs();
    const user = userEvent.setup();
    renderInAdmin(<TelegramCard />, { notifications: true });
    expect(await screen.findByTestId('telegram-none')).toHaveTextContent('אין חשבון טלגרם מקושר.');

    await user.click(screen.getByTestId('telegram-link'));
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    await waitFor(() => expect(tab.location.replace).toHaveBeenCalledWith(DEEP_LINK));
    expect(tab.opener).toBeNull();
    expect(await screen.findByTestId('telegram-waiting')).toHaveTextContent('התחל');
    expect(screen.getByTestId('telegram-open')).toHaveAttribute('href', DEEP_LINK);

    linked = true;
    expect(await screen.findByTestId('telegram-username', {}, { timeout: 6000 })).toHaveTextContent('@avi_staff');
    expect(screen.getByTestId('telegram-username').querySelector('bdi')).toHaveTextContent('@avi_staff');
    const polls = calls.filter((call) => call.url === '/api/users/me/telegram').length;
    expect(polls).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(calls.filter((call) => call.url === '/api/users/me/telegram')).toHaveLength(polls);
  }, 15_000);

  it('says when the service has no Telegram', async () => {
    mockFetch({ 'GET /api/users/me/telegram': () => json(200, { ...NOT_LINKED, configured: false }) });
    renderInAdmin(<TelegramCard />, { lang: 'en' });
    expect(await screen.findByTestId('telegram-not-configured')).toHaveTextContent(
      'Telegram is not set up on this service.',
    );
    expect(screen.queryByTestId('telegram-link')).toBeNull();
  });

  it('unlinks only after the confirmation', async () => {
    let linked = true;
    const { calls } = mockFetch({
      'GET /api/users/me/telegram': () => json(200, linked ? LINKED : NOT_LINKED),
      'DELETE /api/users/me/telegram': () => {
        linked = false;
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderInAdmin(<TelegramCard />, { lang: 'en' });
    expect(await screen.findByTestId('telegram-linked-at')).toHaveTextContent('Linked on');
    await user.click(screen.getByTestId('telegram-unlink'));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(screen.getByTestId('telegram-unlink'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Unlink Telegram' }));
    expect(await screen.findByTestId('telegram-none')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
