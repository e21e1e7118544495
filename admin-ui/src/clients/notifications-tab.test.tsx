import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { NotificationsTab } from './notifications-tab';

const SENT = [
  {
    id: 'n-2',
    kind: 'renewal-failed',
    params: {
      subscriptionId: 's-1',
      planName: 'Gold',
      missingMinor: 800,
      graceDeadline: '2026-05-04T09:00:00.000Z',
      endDate: '2026-05-01T09:00:00.000Z',
      link: '/payments/deposit?amountMinor=800',
    },
    createdAt: '2026-04-29T09:00:00.000Z',
    readAt: null,
    mailState: 'SENT',
  },
  {
    id: 'n-1',
    kind: 'ending',
    params: { subscriptionId: 's-2', planName: null, endDate: '2026-04-25T09:00:00.000Z', link: '/subscriptions/s-2' },
    createdAt: '2026-04-18T09:00:00.000Z',
    readAt: '2026-04-19T09:00:00.000Z',
    mailState: 'RETRYING',
  },
];

function renderTab() {
  signInAs('MANAGER');
  return renderInAdmin(<NotificationsTab />, {
    resource: 'clients',
    record: CLIENT,
    withAuth: true,
    path: '/admin/clients/u-1/show/notifications',
  });
}

describe("a client's notifications tab", () => {
  it('lists what was sent, newest first, with read state and mail state, for a manager', async () => {
    const { calls } = mockFetch({
      'POST /api/users/u-1/notifications/search': () =>
        json(200, { content: SENT, page: 0, size: 20, totalElements: 2, totalPages: 1 }),
    });
    renderTab();

    const rows = await screen.findAllByTestId('client-notification');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Gold');
    expect(rows[0]).toHaveTextContent('8.00');
    expect(within(rows[0]).getByTestId('client-notification-read')).toHaveTextContent('לא נקראה');
    expect(within(rows[0]).getByTestId('client-notification-mail')).toHaveTextContent('המייל נשלח');
    expect(rows[1]).toHaveTextContent('תקופת הניסיון');
    expect(within(rows[1]).getByTestId('client-notification-read')).toHaveTextContent('נקראה');
    expect(within(rows[1]).getByTestId('client-notification-mail')).toHaveTextContent('המייל בניסיון חוזר');
    expect(calls.find((call) => call.url === '/api/users/u-1/notifications/search')?.body).toEqual({
      page: 0,
      size: 20,
    });
  });

  it('tells staff that a lapse paused the package, with the date its login is kept until', async () => {
    mockFetch({
      'POST /api/users/u-1/notifications/search': () =>
        json(200, {
          content: [
            {
              ...SENT[0],
              id: 'n-3',
              kind: 'grace-started',
              params: { ...SENT[0].params, graceDeadline: '2026-05-04T09:00:00.000Z' },
            },
          ],
          page: 0,
          size: 20,
          totalElements: 1,
          totalPages: 1,
        }),
    });
    renderTab();
    const [row] = await screen.findAllByTestId('client-notification');
    expect(row).toHaveTextContent('Gold הושהתה');
    expect(row).toHaveTextContent('8.00');
    expect(row).toHaveTextContent('שם המשתמש שמור עד');
    expect(row).toHaveTextContent('2026');
  });

  it('tells staff the days added with their reason (ADR 0089), a notice with no mail', async () => {
    mockFetch({
      'POST /api/users/u-1/notifications/search': () =>
        json(200, {
          content: [
            {
              ...SENT[0],
              id: 'n-4',
              kind: 'extended',
              mailState: null,
              params: {
                subscriptionId: SENT[0].params.subscriptionId,
                planName: 'Gold',
                days: 2,
                reason: 'Outage on Sunday',
                source: 'STAFF',
                endDate: '2026-05-04T09:00:00.000Z',
                link: '/subscriptions/s-1',
              },
            },
          ],
          page: 0,
          size: 20,
          totalElements: 1,
          totalPages: 1,
        }),
    });
    renderTab();
    const [row] = await screen.findAllByTestId('client-notification');
    expect(row).toHaveTextContent('Gold: +2 ימים: Outage on Sunday');
    expect(row).toHaveTextContent('2026');
    expect(within(row).queryByTestId('client-notification-mail')).toBeNull();
  });

  it('says when nothing was sent', async () => {
    mockFetch({
      'POST /api/users/u-1/notifications/search': () =>
        json(200, { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 }),
    });
    renderTab();
    expect(await screen.findByTestId('client-notifications-empty')).toBeVisible();
  });
});
