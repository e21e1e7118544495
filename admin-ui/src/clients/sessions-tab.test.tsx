import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { SessionsTab } from './sessions-tab';

const SESSIONS = [
  {
    id: 's-1',
    browser: 'Chrome 131',
    os: 'Windows 10',
    deviceType: 'desktop',
    ipAddress: '203.0.113.7',
    countryCode: null,
    startedAt: '2026-11-30T08:00:00.000Z',
    lastUsedAt: '2026-11-30T09:00:00.000Z',
    current: false,
  },
  {
    id: 's-2',
    browser: 'Safari 17',
    os: 'iOS 17',
    deviceType: 'mobile',
    ipAddress: '5.29.1.1',
    countryCode: 'IL',
    startedAt: '2026-11-30T08:30:00.000Z',
    lastUsedAt: '2026-11-30T08:45:00.000Z',
    current: false,
  },
];

function renderTab(role: 'ADMIN' | 'MANAGER') {
  signInAs(role);
  return renderInAdmin(<SessionsTab />, {
    resource: 'clients',
    record: CLIENT,
    withAuth: true,
    path: '/admin/clients/u-1/show/sessions',
  });
}

describe("a client's sessions tab", () => {
  it('lists the sessions for a manager, who may not end them', async () => {
    mockFetch({ 'GET /api/users/u-1/sessions': () => json(200, SESSIONS) });
    renderTab('MANAGER');
    const rows = await screen.findAllByTestId('client-session');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Chrome 131 · Windows 10');
    expect(rows[0]).toHaveTextContent('203.0.113.7');
    // The country of the sign-in beside the device, in the console's language (ADR 0101); none known: the address.
    expect(rows[1]).toHaveTextContent('Safari 17 · iOS 17 · ישראל');
    expect(rows[1]).toHaveTextContent('5.29.1.1');
    expect(screen.getByTestId('client-sessions-attribution')).toHaveTextContent(
      'This site or product includes IP2Location LITE data available from https://lite.ip2location.com',
    );
    expect(screen.queryByTestId('client-sessions-end')).toBeNull();
  });

  it('lets an admin end them with a reason and a note', async () => {
    let ended = false;
    const { calls } = mockFetch({
      'GET /api/users/u-1/sessions': () => json(200, ended ? [] : SESSIONS),
      'POST /api/users/u-1/sessions-end': () => {
        ended = true;
        return json(200, { ended: 1 });
      },
    });
    const user = userEvent.setup();
    renderTab('ADMIN');
    await user.click(await screen.findByTestId('client-sessions-end'));
    const note = within(screen.getByTestId('client-sessions-note')).getByRole('textbox');
    await user.type(note, 'Two countries in an hour');
    await user.click(screen.getByTestId('client-sessions-confirm'));
    await waitFor(() => expect(screen.getByTestId('client-sessions-empty')).toBeInTheDocument());
    const call = calls.find((entry) => entry.url.endsWith('/sessions-end'));
    expect(call?.body).toEqual({ reason: 'SUSPICIOUS_ACTIVITY', note: 'Two countries in an hour' });
  });
});
