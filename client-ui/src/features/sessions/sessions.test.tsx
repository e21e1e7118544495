import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, type UserSessionView } from '@kupa/proto';
import { errorResponse, jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

const THIS: UserSessionView = {
  id: '11111111-1111-4111-8111-111111111111',
  browser: 'Chrome 131',
  os: 'Windows 10',
  deviceType: 'desktop',
  ipAddress: '203.0.113.7',
  countryCode: null,
  startedAt: '2026-11-30T08:00:00.000Z',
  lastUsedAt: '2026-11-30T09:00:00.000Z',
  current: true,
};
const PHONE: UserSessionView = {
  ...THIS,
  id: '22222222-2222-4222-8222-222222222222',
  browser: 'Safari 17',
  os: 'iOS 17',
  deviceType: 'mobile',
  ipAddress: '5.29.1.1',
  countryCode: 'IL',
  current: false,
};

/** The profile's calls, with the sessions list as it stands after each end. */
function profileWith(sessions: UserSessionView[]) {
  let current = sessions;
  return mockFetch(({ url, method }) => {
    if (url === '/api/users/me/sessions' && method === 'DELETE') {
      const ended = current.filter((session) => !session.current).length;
      current = current.filter((session) => session.current);
      return jsonResponse(200, { ended });
    }
    if (url.startsWith('/api/users/me/sessions/') && method === 'DELETE') {
      current = current.filter((session) => !url.endsWith(session.id));
      return new Response(null, { status: 204 });
    }
    if (url === '/api/users/me/sessions') return jsonResponse(200, current);
    if (url === '/api/users/me/saved-card') return jsonResponse(200, { available: false, provider: null, card: null });
    if (url === '/api/notifications/preferences') return jsonResponse(200, { announcements: true });
    return jsonResponse(200, makeUser());
  });
}

describe('my profile: active sessions', () => {
  it('lists the sessions with their device, marks this one, and ends another', async () => {
    signInAs();
    const { calls } = profileWith([THIS, PHONE]);
    const user = userEvent.setup();
    renderApp('/my-profile');
    const devices = await screen.findAllByTestId('session-device');
    // The country of the sign-in beside the device, in the screen's language (ADR 0101); none known: the device alone.
    expect(devices.map((device) => device.textContent)).toEqual([
      'Chrome 131 ב-Windows 10',
      'Safari 17 ב-iOS 17 · ישראל',
    ]);
    expect(screen.getAllByTestId('session-country')).toHaveLength(1);
    expect(screen.getByTestId('sessions-attribution')).toHaveTextContent(
      'This site or product includes IP2Location LITE data available from https://lite.ip2location.com',
    );
    expect(screen.getAllByTestId('session-current')).toHaveLength(1);
    expect(screen.getAllByTestId('session-end')).toHaveLength(1);
    await user.click(screen.getByTestId('session-end'));
    await waitFor(() => expect(screen.getAllByTestId('session')).toHaveLength(1));
    expect(calls.some((call) => call.method === 'DELETE' && call.url === `/api/users/me/sessions/${PHONE.id}`)).toBe(
      true,
    );
    expect(screen.getByTestId('sessions-none')).toBeInTheDocument();
  });

  it('ends every other session at once', async () => {
    signInAs();
    profileWith([THIS, PHONE, { ...PHONE, id: '33333333-3333-4333-8333-333333333333' }]);
    const user = userEvent.setup();
    renderApp('/my-profile');
    await user.click(await screen.findByTestId('sessions-end-others'));
    expect(await screen.findByTestId('sessions-ended')).toHaveTextContent('2 התחברויות נותקו');
    await waitFor(() => expect(screen.getAllByTestId('session')).toHaveLength(1));
  });
});

describe('end-session page (the new-device mail’s link)', () => {
  it('calls nothing until the button is pressed, then ends the session the token names', async () => {
    const { calls } = mockFetch(() => new Response(null, { status: 204 }));
    const user = userEvent.setup();
    renderApp('/end-session?token=s-1.sig');
    expect(await screen.findByTestId('end-session-intro')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.click(screen.getByTestId('end-session-submit'));
    expect(await screen.findByTestId('end-session-done')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ url: '/api/sessions/end-link', method: 'POST' });
    expect(calls[0].body).toEqual({ token: 's-1.sig' });
  });

  it('shows the catalogue message for a spent or forged link', async () => {
    mockFetch(() => errorResponse(400, 'error.session.end.link.invalid'));
    const user = userEvent.setup();
    renderApp('/end-session?token=forged');
    await user.click(await screen.findByTestId('end-session-submit'));
    expect(await screen.findByTestId('end-session-error')).toHaveTextContent(
      formatErrorMessage('error.session.end.link.invalid', 'he'),
    );
  });
});
