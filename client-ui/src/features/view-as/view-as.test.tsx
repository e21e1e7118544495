import { fillPlaceholders } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../lib/browser';
import { formatTime } from '../../lib/format';
import { useLangStore } from '../../lib/stores/lang-store';
import { useUserStore } from '../../lib/stores/user-store';
import { VIEW_AS_MESSAGES } from '../../lib/view-as/view-as-messages';
import { useViewAsStore, type ViewAsSession } from '../../lib/view-as/view-as-store';
import { isViewAsTab } from '../../lib/view-as/view-as-tab';
import { viewAsClaims } from '../../lib/view-as/view-as-token';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makePlan,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../test/render-app';

const base64Url = (value: object) =>
  btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A view-as token as the API signs it (the portal never checks the signature; the API does). */
function viewAsToken(expiresInSeconds = 900): string {
  const claims = {
    sub: CLIENT_SESSION.userUuid,
    vab: '9a1c6a8e-0000-4000-8000-0000000000aa',
    vid: '5b2c6a8e-0000-4000-8000-0000000000bb',
    exp: Math.floor(Date.now() / 1000) + expiresInSeconds,
  };
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(claims)}.signature`;
}

const SESSION: ViewAsSession = {
  viewId: '5b2c6a8e-0000-4000-8000-0000000000bb',
  expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  clientName: 'Dana Levi',
  clientEmail: CLIENT_SESSION.email,
};

/** A view already open in this tab: its session in the stores, as the view-as page leaves it. */
function viewing(session: Partial<ViewAsSession> = {}): ViewAsSession {
  const opened = { ...SESSION, ...session };
  signInAs({ accessToken: 'view-token' });
  useViewAsStore.getState().start(opened);
  return opened;
}

function answer(call: RecordedCall): Response {
  if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ balance: 42.5 }));
  if (call.url === '/api/payment-plans/search') return jsonResponse(200, pageOf([makePlan()]));
  if (call.url.endsWith('/search')) return jsonResponse(200, pageOf([]));
  return errorResponse(404, 'error.entity.not.found');
}

beforeEach(() => useLangStore.getState().setLang('en'));
afterEach(() => window.history.replaceState(null, '', '/'));

describe('opening a view from the console link', () => {
  it('takes the token from the fragment, clears the address and shows the client with the banner', async () => {
    const token = viewAsToken();
    window.history.replaceState(null, '', `/view-as#${token}`);
    const { calls } = mockFetch(answer);
    const { history } = renderApp('/view-as');

    const banner = await screen.findByTestId('view-as-banner');
    // The token left the address bar at once, and never went into a query string.
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('');
    const expiresAt = new Date(viewAsClaims(token)!.exp * 1000).toISOString();
    // Exact text: the time keeps its no-break spaces, which a whitespace-normalising matcher would not compare.
    expect(within(banner).getByTestId('view-as-banner-text').textContent).toBe(
      `Viewing as Dana Levi — read only — ends at ${formatTime(expiresAt, 'en')}`,
    );
    await waitFor(() => expect(history.location.pathname).not.toBe('/view-as'));
    // Every call of the view carries the view's token and never asks for a refresh.
    const me = calls.find((call) => call.url === '/api/users/me');
    expect(me?.headers.authorization).toBe(`Bearer ${token}`);
    expect(calls.some((call) => call.url === '/api/auth/token/refresh')).toBe(false);
    expect(useViewAsStore.getState().session).toMatchObject({ viewId: viewAsClaims(token)!.vid, expiresAt });
  });

  it('says the link is no longer valid when the API refuses the token, without a sign-in page', async () => {
    window.history.replaceState(null, '', `/view-as#token=${viewAsToken()}`);
    const { calls } = mockFetch(() => errorResponse(401, 'error.session.expired'));
    const { history } = renderApp('/view-as');

    expect(await screen.findByTestId('view-as-refused')).toHaveTextContent(VIEW_AS_MESSAGES.en['closed.refused']);
    expect(history.location.pathname).toBe('/view-as');
    expect(calls.some((call) => call.url === '/api/auth/token/refresh')).toBe(false);
    expect(useUserStore.getState().accessToken).toBeNull();
  });

  it('refuses a token that is not a view-as token without calling the API', async () => {
    window.history.replaceState(null, '', '/view-as#not-a-token');
    const { calls } = mockFetch(answer);
    renderApp('/view-as');
    expect(await screen.findByTestId('view-as-refused')).toBeVisible();
    expect(calls).toHaveLength(0);
  });

  it('marks the tab by its address and by an open view, not otherwise', () => {
    expect(isViewAsTab()).toBe(false);
    window.history.replaceState(null, '', '/view-as');
    expect(isViewAsTab()).toBe(true);
    window.history.replaceState(null, '', '/packages');
    expect(isViewAsTab()).toBe(false);
    useViewAsStore.getState().start(SESSION);
    expect(isViewAsTab()).toBe(true);
  });
});

describe('a view in progress', () => {
  it('shows the banner in Hebrew with the name and the time isolated', async () => {
    useLangStore.getState().setLang('he');
    const session = viewing();
    mockFetch(answer);
    renderApp('/my-profile');
    const text = await screen.findByTestId('view-as-banner-text');
    expect(text.textContent).toBe(
      fillPlaceholders(VIEW_AS_MESSAGES.he['banner.active'], {
        client: 'Dana Levi',
        time: formatTime(session.expiresAt, 'he'),
      }),
    );
    // The name and the time are isolated, so neither reorders the Hebrew sentence around it.
    expect(text.querySelectorAll('bdi')).toHaveLength(2);
  });

  it('shows the buy button disabled, and says why', async () => {
    viewing();
    const { calls } = mockFetch(answer);
    const user = userEvent.setup();
    renderApp('/packages');

    const buy = await screen.findByTestId('plan-buy');
    expect(buy).toBeDisabled();
    await user.hover(buy.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(VIEW_AS_MESSAGES.en.readOnlyAction);
    expect(calls.filter((call) => call.method !== 'GET' && !call.url.endsWith('/search'))).toHaveLength(0);
  });

  it('disables the profile and security forms and offers End view instead of Log out', async () => {
    viewing();
    mockFetch(answer);
    renderApp('/my-profile');

    expect(await screen.findByTestId('profile-name-submit')).toBeDisabled();
    expect(screen.getByTestId('profile-password-submit')).toBeDisabled();
    expect(screen.getAllByTestId('view-as-read-only').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByTestId('logout')).toBeNull();
    expect(screen.getByTestId('view-as-end-nav')).toHaveTextContent('End view');
  });

  it('leaves the same buttons enabled for the client outside a view', async () => {
    signInAs();
    mockFetch(answer);
    renderApp('/my-profile');
    expect(await screen.findByTestId('profile-password-submit')).toBeEnabled();
    expect(screen.queryByTestId('view-as-banner')).toBeNull();
    expect(screen.queryByTestId('view-as-read-only')).toBeNull();
  });

  it('ends the view: forgets the token, closes the tab, and shows that it ended', async () => {
    viewing();
    mockFetch(answer);
    const close = vi.spyOn(browser, 'close').mockImplementation(() => undefined);
    const user = userEvent.setup();
    const { history } = renderApp('/my-profile');

    await user.click(await screen.findByTestId('view-as-end'));

    expect(close).toHaveBeenCalledTimes(1);
    expect(useUserStore.getState().accessToken).toBeNull();
    expect(useViewAsStore.getState().session).toBeNull();
    await waitFor(() => expect(history.location.pathname).toBe('/view-as'));
    expect(await screen.findByTestId('view-as-closed')).toBeVisible();
  });
});

describe('the end of a view', () => {
  it('says the view ended when its time comes, without leaving the page for the sign-in', async () => {
    viewing({ expiresAt: new Date(Date.now() + 2500).toISOString() });
    mockFetch(answer);
    const { history } = renderApp('/my-profile');

    expect(await screen.findByTestId('profile-name-submit')).toBeDisabled();
    expect(screen.getByTestId('view-as-banner')).toHaveAttribute('data-ended', 'false');
    expect(await screen.findByTestId('view-as-ended', {}, { timeout: 8000 })).toHaveTextContent(
      VIEW_AS_MESSAGES.en['ended.title'],
    );
    expect(screen.queryByTestId('profile-name-submit')).toBeNull();
    expect(screen.getByTestId('view-as-banner')).toHaveAttribute('data-ended', 'true');
    expect(screen.getByTestId('view-as-banner-text')).toHaveTextContent('The view as Dana Levi has ended');
    expect(history.location.pathname).toBe('/my-profile');
  });

  it('says so too when the API refuses the token early, and asks for no refresh', async () => {
    viewing();
    const { calls } = mockFetch(() => errorResponse(401, 'error.session.expired'));
    const { history } = renderApp('/payments');

    expect(await screen.findByTestId('view-as-ended')).toBeVisible();
    expect(history.location.pathname).toBe('/payments');
    expect(calls.some((call) => call.url === '/api/auth/token/refresh')).toBe(false);
  });

  it('opens no sign-in page in a view tab: the login address leads to the view page', async () => {
    window.history.replaceState(null, '', '/view-as');
    mockFetch(answer);
    const { history } = renderApp('/login');
    expect(await screen.findByTestId('view-as-closed')).toBeVisible();
    expect(history.location.pathname).toBe('/view-as');
  });
});
