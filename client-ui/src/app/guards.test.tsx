import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STAFF_NOTICE_MESSAGES } from '../features/auth/login/staff-notice';
import { translate } from '../lib/i18n/i18n';
import { useUserStore } from '../lib/stores/user-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../test/render-app';
import { canAccess, homePathFor, ROUTE_ROLES, SIDEBAR } from './access';

function mockApi() {
  return mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === '/api/auth/logout') return jsonResponse(204);
    return errorResponse(404, 'error.entity.not.found');
  });
}

describe('access rules', () => {
  it('gives clients and ambassadors the product sidebar and every client route, and staff none', () => {
    for (const role of ['CLIENT', 'AMBASSADOR'] as const) {
      expect(SIDEBAR[role].map((entry) => entry.path)).toEqual([
        '/subscriptions',
        '/packages',
        '/payments',
        '/my-profile',
        '/referrals',
        '/help',
      ]);
      for (const path of Object.keys(ROUTE_ROLES) as Array<keyof typeof ROUTE_ROLES>)
        expect(canAccess(role, path)).toBe(true);
      expect(homePathFor(role)).toBe('/subscriptions');
    }
    expect(canAccess('ADMIN', '/my-profile')).toBe(false);
    expect(canAccess('MANAGER', '/referrals')).toBe(false);
    expect(canAccess(null, '/help')).toBe(false);
  });
});

describe('route guards', () => {
  it('sends a visitor without a token to /login', async () => {
    mockApi();
    const { history } = renderApp('/my-profile');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('login-form')).toBeInTheDocument();
  });

  it('redirects / to the first sidebar entry of the role', async () => {
    signInAs({ userRole: 'AMBASSADOR' });
    mockApi();
    const { history } = renderApp('/');
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
    expect(await screen.findByTestId('sidebar')).toBeInTheDocument();
  });

  it('signs a staff user out and shows where staff sign in', async () => {
    signInAs({ userRole: 'MANAGER' });
    const { calls } = mockApi();
    const { history } = renderApp('/payments');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(await screen.findByTestId('staff-notice')).toHaveTextContent(STAFF_NOTICE_MESSAGES.he.title);
    expect(useUserStore.getState().accessToken).toBeNull();
    expect(calls.some((call) => call.url === '/api/auth/logout')).toBe(true);
  });

  it('shows the layout with balance and sidebar entries for a client', async () => {
    signInAs();
    mockApi();
    renderApp('/my-profile');
    expect(
      await screen.findByRole('heading', { level: 1, name: translate('he', 'profile.title') }),
    ).toBeInTheDocument();
    expect(await screen.findByTestId('profile-id')).toHaveTextContent('12345678');
    const sidebar = screen.getByTestId('sidebar');
    expect(sidebar).toHaveAccessibleName(translate('he', 'nav.label'));
    expect(screen.getByTestId('nav-my-profile')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('balance').querySelector('bdi')).not.toBeNull();
  });

  it('on a phone, builds the sidebar only in the drawer the menu button opens, the screen still shown', async () => {
    // Narrower than the medium breakpoint: MUI's `down('md')` asks for a max-width, a phone answers yes.
    const wideMatchMedia = window.matchMedia;
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ ...wideMatchMedia(query), matches: query.includes('max-width') }) as MediaQueryList,
    );
    signInAs();
    mockApi();
    const user = userEvent.setup();
    renderApp('/my-profile');
    expect(await screen.findByTestId('profile-id')).toHaveTextContent('12345678');
    // The permanent sidebar is hidden on a phone anyway; it is no longer rendered there.
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('nav-open'));
    expect(await screen.findAllByTestId('sidebar')).toHaveLength(1);
    expect(screen.getByTestId('nav-my-profile')).toHaveAttribute('aria-current', 'page');
  });

  it('shows the not-found screen for an unknown route and goes back to the root', async () => {
    signInAs();
    mockApi();
    const user = userEvent.setup();
    const { history } = renderApp('/no-such-page');
    expect(await screen.findByTestId('not-found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: translate('he', 'notFound.back') }));
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions'));
  });

  it('logs out: calls the API, clears the user and goes to /login', async () => {
    signInAs();
    const { calls } = mockApi();
    const { history } = renderApp('/logout');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(calls.filter((call) => call.url === '/api/auth/logout')).toHaveLength(1);
    expect(useUserStore.getState().accessToken).toBeNull();
  });

  it('on an expired session that cannot be refreshed, clears the user and lands on /login', async () => {
    signInAs();
    const { calls } = mockFetch(() => errorResponse(401, 'error.session.expired'));
    const { history } = renderApp('/my-profile');
    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    expect(useUserStore.getState().accessToken).toBeNull();
    expect(calls.filter((call) => call.url === '/api/auth/token/refresh')).toHaveLength(1);
  });
});
