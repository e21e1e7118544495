import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ProfileTab } from './profile-tab';
import { viewAsUrl } from './view-as-button';

const TOKEN = 'header.payload.signature';

/** The tab `window.open` gives back: only what the button uses of it. */
function fakeTab() {
  return { opener: {} as unknown, location: { replace: vi.fn() }, close: vi.fn() };
}

let tab: ReturnType<typeof fakeTab>;
beforeEach(() => {
  signInAs('ADMIN');
  tab = fakeTab();
  vi.spyOn(window, 'open').mockImplementation(() => tab as unknown as Window);
});
afterEach(() => vi.restoreAllMocks());

describe('view as client (console)', () => {
  it("opens the portal's view-as page in a new tab with the token in the fragment only", async () => {
    const { calls } = mockFetch({
      'POST /api/users/u-1/view-as': () =>
        json(201, { accessToken: TOKEN, viewId: 'v-1', expiresAt: '2026-11-30T10:15:00.000Z' }),
    });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: CLIENT, lang: 'en', withAuth: true });

    await user.click(await screen.findByTestId('view-as-open'));

    // The tab opens within the click (no pop-up blocker), cut off from the console.
    expect(window.open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.replace).toHaveBeenCalledTimes(1));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/users/u-1/view-as' });
    const opened = new URL(tab.location.replace.mock.calls[0][0] as string);
    expect(opened.origin).toBe(window.location.origin);
    expect(opened.pathname).toBe('/view-as');
    expect(opened.search).toBe('');
    expect(opened.hash).toBe(`#${TOKEN}`);
  });

  it('is offered to managers too, with what it records', async () => {
    signInAs('MANAGER');
    mockFetch({});
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: CLIENT, lang: 'en', withAuth: true });
    expect(await screen.findByTestId('view-as-open')).toHaveTextContent('View as client');
    expect(screen.getByText(/recorded in the client's activity log/)).toBeVisible();
  });

  it('is not offered on a staff account', async () => {
    mockFetch({});
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: { ...CLIENT, role: 'MANAGER' }, withAuth: true });
    // The admin's own controls show once the permissions are known; the view-as one does not.
    expect(await screen.findByTestId('fix-balance-open')).toBeVisible();
    expect(screen.queryByTestId('view-as-open')).toBeNull();
  });

  it('closes the empty tab when the API refuses, and can be pressed again', async () => {
    mockFetch({
      'POST /api/users/u-1/view-as': () => json(403, { error: 'error.view.as.staff.account' }),
    });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, {
      resource: 'clients',
      record: CLIENT,
      lang: 'en',
      notifications: true,
      withAuth: true,
    });

    await user.click(await screen.findByTestId('view-as-open'));

    await waitFor(() => expect(tab.close).toHaveBeenCalledTimes(1));
    expect(tab.location.replace).not.toHaveBeenCalled();
    expect(screen.getByTestId('view-as-open')).toBeEnabled();
  });

  it('builds the address on the console origin, the token encoded in the fragment', () => {
    expect(viewAsUrl('a.b_c-d', 'https://kupa.example')).toBe('https://kupa.example/view-as#a.b_c-d');
  });
});
