import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientNotification, NotificationPage } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { errorResponse, jsonResponse, makeUser, mockFetch, pageOf, renderApp, signInAs } from '../../test/render-app';

const SHORT: ClientNotification = {
  id: '7a000000-0000-4000-8000-000000000001',
  kind: 'renewal-short',
  params: {
    subscriptionId: '5d2e8f10-0000-4000-8000-0000000000c1',
    planName: 'Gold',
    missingMinor: 800,
    paymentDate: '2026-04-28T09:00:00.000Z',
    link: '/payments/deposit?amountMinor=800',
  },
  createdAt: '2026-04-21T09:00:00.000Z',
  readAt: null,
};
const ENDING: ClientNotification = {
  id: '7a000000-0000-4000-8000-000000000002',
  kind: 'ending',
  params: {
    subscriptionId: '5d2e8f10-0000-4000-8000-0000000000c2',
    planName: null,
    endDate: '2026-04-25T09:00:00.000Z',
    link: '/subscriptions/5d2e8f10-0000-4000-8000-0000000000c2',
  },
  createdAt: '2026-04-18T09:00:00.000Z',
  readAt: '2026-04-19T09:00:00.000Z',
};

const GRACE: ClientNotification = {
  id: '7a000000-0000-4000-8000-000000000003',
  kind: 'grace-started',
  params: {
    subscriptionId: '5d2e8f10-0000-4000-8000-0000000000c3',
    planName: 'Gold',
    missingMinor: 800,
    endDate: '2026-05-01T09:00:00.000Z',
    graceDeadline: '2026-05-04T09:00:00.000Z',
    link: '/payments/deposit?amountMinor=800',
  },
  createdAt: '2026-05-01T09:01:00.000Z',
  readAt: null,
};

const EXTENDED: ClientNotification = {
  id: '7a000000-0000-4000-8000-000000000004',
  kind: 'extended',
  params: {
    subscriptionId: '5d2e8f10-0000-4000-8000-0000000000c4',
    planName: 'Gold',
    days: 2,
    reason: 'Outage on Sunday',
    source: 'STAFF',
    endDate: '2026-05-03T09:00:00.000Z',
    link: '/subscriptions/5d2e8f10-0000-4000-8000-0000000000c4',
  },
  createdAt: '2026-05-01T09:01:00.000Z',
  readAt: null,
};

function mockNotificationsApi(notifications: ClientNotification[]) {
  let current = notifications;
  const page = (): NotificationPage => ({
    ...pageOf(current),
    unreadCount: current.filter((notification) => notification.readAt === null).length,
  });
  return mockFetch(async (call) => {
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser());
    if (call.url === '/api/notifications/search') return jsonResponse(200, page());
    if (call.url === '/api/notifications/read-all') {
      const marked = current.filter((notification) => notification.readAt === null).length;
      current = current.map((notification) => ({ ...notification, readAt: notification.readAt ?? 'now' }));
      return jsonResponse(200, { marked });
    }
    const one = /^\/api\/notifications\/([^/]+)\/read$/.exec(call.url);
    if (one) {
      current = current.map((notification) =>
        notification.id === one[1] ? { ...notification, readAt: notification.readAt ?? 'now' } : notification,
      );
      return jsonResponse(
        200,
        current.find((notification) => notification.id === one[1]),
      );
    }
    return errorResponse(404, 'error.entity.not.found');
  });
}

describe('notifications', () => {
  it('the bell shows the unread count and opens the list, newest first, unread marked', async () => {
    signInAs();
    mockNotificationsApi([SHORT, ENDING]);
    const user = userEvent.setup();
    const { history } = renderApp('/subscriptions');

    const bell = await screen.findByTestId('notification-bell');
    await waitFor(() => expect(bell).toHaveAccessibleName(translate('he', 'notifications.bellUnread', { count: 1 })));
    await user.click(bell);
    await waitFor(() => expect(history.location.pathname).toBe('/notifications'));

    const items = await screen.findAllByTestId('notification');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAttribute('data-unread', 'true');
    expect(items[1]).toHaveAttribute('data-unread', 'false');
    expect(items[0]).toHaveTextContent('Gold');
    expect(items[0]).toHaveTextContent('8.00');
    // The trial's ending speaks of the trial.
    expect(items[1]).toHaveTextContent(translate('he', 'notifications.trial'));
  });

  it('acting on an unread one marks it read and opens the top-up', async () => {
    signInAs();
    const { calls } = mockNotificationsApi([SHORT, ENDING]);
    const user = userEvent.setup();
    const { history } = renderApp('/notifications');

    const [first] = await screen.findAllByTestId('notification');
    await user.click(within(first).getByTestId('notification-action'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/deposit'));
    // The one-click top-up keeps the amount the reminder names.
    expect(new URLSearchParams(history.location.search).get('amountMinor')).toBe('800');
    expect(calls.some((call) => call.url === `/api/notifications/${SHORT.id}/read` && call.method === 'POST')).toBe(
      true,
    );
  });

  it('marks all read, in English too', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockNotificationsApi([SHORT, { ...ENDING, readAt: null }]);
    const user = userEvent.setup();
    renderApp('/notifications');

    const markAll = await screen.findByRole('button', { name: translate('en', 'notifications.markAllRead') });
    await waitFor(() => expect(markAll).toBeEnabled());
    expect(screen.getAllByTestId('notification')[0]).toHaveTextContent('$8.00 missing to renew Gold');
    await user.click(markAll);
    await waitFor(() => expect(markAll).toBeDisabled());
    expect(calls.filter((call) => call.url === '/api/notifications/read-all')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getAllByTestId('notification').map((item) => item.getAttribute('data-unread'))).toEqual([
        'false',
        'false',
      ]),
    );
  });

  it('a lapse into the grace window says paused, until when the login is kept, and offers the top-up', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockNotificationsApi([GRACE]);
    const user = userEvent.setup();
    const { history } = renderApp('/notifications');

    const [item] = await screen.findAllByTestId('notification');
    expect(item).toHaveTextContent('Gold is paused');
    expect(item).toHaveTextContent('your login is kept until');
    expect(item).toHaveTextContent('$8.00 short');
    await user.click(within(item).getByTestId('notification-action'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/deposit'));
  });

  it('days added say how many and why, in both languages, and open the subscription', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockNotificationsApi([
      EXTENDED,
      {
        ...EXTENDED,
        id: '7a000000-0000-4000-8000-000000000005',
        params: { ...EXTENDED.params, days: 1, reason: 'Summer 2026', source: 'VOUCHER' },
      },
    ]);
    const user = userEvent.setup();
    const { history } = renderApp('/notifications');

    const [staff, voucher] = await screen.findAllByTestId('notification');
    expect(staff).toHaveTextContent('Your subscription Gold got 2 more days: Outage on Sunday');
    expect(staff).toHaveTextContent('It now runs until');
    expect(voucher).toHaveTextContent('Your subscription Gold got 1 more day: voucher Summer 2026');
    await user.click(within(staff).getByTestId('notification-action'));
    await waitFor(() => expect(history.location.pathname).toBe('/subscriptions/5d2e8f10-0000-4000-8000-0000000000c4'));
  });

  it('days added read in Hebrew too', async () => {
    useLangStore.getState().setLang('he');
    signInAs();
    mockNotificationsApi([EXTENDED]);
    renderApp('/notifications');
    const [item] = await screen.findAllByTestId('notification');
    expect(item).toHaveTextContent('למנוי Gold נוספו 2 ימים: Outage on Sunday');
  });

  it('a transfer received names the sender and opens the payment; a low balance offers the top-up back', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockNotificationsApi([
      {
        id: '7a000000-0000-4000-8000-000000000006',
        kind: 'transfer-received',
        params: {
          amountMinor: 750,
          paymentId: 42,
          senderName: 'Dana Cohen',
          senderProfileId: '123456',
          link: '/payments/42',
        },
        createdAt: '2026-05-02T09:00:00.000Z',
        readAt: null,
      },
      {
        id: '7a000000-0000-4000-8000-000000000007',
        kind: 'low-balance',
        params: { balanceMinor: 700, thresholdMinor: 800, link: '/payments/deposit?amountMinor=100' },
        createdAt: '2026-05-01T09:00:00.000Z',
        readAt: null,
      },
    ]);
    const user = userEvent.setup();
    const { history } = renderApp('/notifications');

    const [transfer, low] = await screen.findAllByTestId('notification');
    expect(transfer).toHaveTextContent('You received a transfer of $7.50');
    expect(transfer).toHaveTextContent('Dana Cohen (123456)');
    expect(low).toHaveTextContent('Your balance fell under $8.00');
    await user.click(within(transfer).getByTestId('notification-action'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/42'));
  });
});
