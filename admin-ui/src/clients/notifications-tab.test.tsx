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

  it('tells staff a deposit, a transfer with its sender (never an e-mail) and a low balance (ADR 0105)', async () => {
    mockFetch({
      'POST /api/users/u-1/notifications/search': () =>
        json(200, {
          content: [
            {
              id: 'n-7',
              kind: 'low-balance',
              params: { balanceMinor: 700, thresholdMinor: 800, link: '/payments/deposit?amountMinor=100' },
              createdAt: '2026-05-03T09:00:00.000Z',
              readAt: null,
              mailState: 'PENDING',
            },
            {
              id: 'n-6',
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
              mailState: 'SENT',
            },
            {
              id: 'n-5',
              kind: 'deposit-credited',
              params: { amountMinor: 2500, method: 'MANUAL_TRANSFER', paymentId: 41, link: '/payments/41' },
              createdAt: '2026-05-01T09:00:00.000Z',
              readAt: null,
              mailState: 'SENT',
            },
          ],
          page: 0,
          size: 20,
          totalElements: 3,
          totalPages: 1,
        }),
    });
    renderTab();

    const [low, transfer, deposit] = await screen.findAllByTestId('client-notification');
    expect(low).toHaveTextContent('היתרה ירדה אל מתחת ל-');
    expect(low).toHaveTextContent('8.00');
    expect(low).toHaveTextContent('7.00');
    expect(transfer).toHaveTextContent('התקבלה העברה של');
    expect(transfer).toHaveTextContent('Dana Cohen (123456)');
    expect(deposit).toHaveTextContent('הפקדה של');
    expect(deposit).toHaveTextContent('25.00');
    expect(deposit).not.toHaveTextContent('%{');
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

describe("a client's notification preferences (ADR 0102), read only", () => {
  const EMPTY_PAGE = () => json(200, { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 });
  const CHOSEN = {
    channels: {
      'renewal-reminders': ['email', 'portal'],
      'renewal-results': ['email', 'telegram'],
      payments: [],
      'subscription-status': ['email', 'telegram', 'portal'],
      announcements: ['portal'],
      'new-device': ['email'],
      'low-balance': ['telegram', 'portal'],
    },
    leadDays: 10,
    lowBalanceThresholdMinor: 1250,
    quietHours: { from: '22:00', to: '07:00', timeZone: 'Asia/Jerusalem' },
  };

  it('shows kinds × channels (on, off, not offered), lead days, threshold and quiet hours, with no control', async () => {
    const { calls } = mockFetch({
      'GET /api/users/u-1/notification-preferences': () => json(200, CHOSEN),
      'POST /api/users/u-1/notifications/search': EMPTY_PAGE,
    });
    renderTab();
    const panel = await screen.findByTestId('client-notification-preferences');
    await within(panel).findByTestId('client-preference-channels');
    const state = (kind: string, channel: string) =>
      within(panel).getByTestId(`client-preference-${kind}-${channel}`).getAttribute('data-state');
    expect(state('renewal-reminders', 'email')).toBe('on');
    expect(state('renewal-reminders', 'telegram')).toBe('off');
    expect(state('payments', 'email')).toBe('off');
    // Renewal results are never offered in the portal: the cell says so rather than "off".
    expect(state('renewal-results', 'portal')).toBe('not_offered');
    expect(within(panel).getByTestId('client-preference-renewal-results-portal')).toHaveTextContent('לא זמין');
    expect(within(panel).getByTestId('client-preference-low-balance-telegram')).toHaveTextContent('פעיל');
    expect(within(panel).getByRole('rowheader', { name: 'כניסה ממכשיר חדש' })).toBeInTheDocument();
    expect(within(panel).getByTestId('client-preference-lead-days')).toHaveTextContent('10 ימים לפני');
    const threshold = within(panel).getByTestId('client-preference-threshold');
    expect(threshold).toHaveTextContent('12.50');
    expect(threshold.querySelector('bdi')).not.toBeNull();
    expect(within(panel).getByTestId('client-preference-quiet-hours')).toHaveTextContent(
      '22:00–07:00 (Asia/Jerusalem)',
    );
    expect(within(panel).queryByRole('checkbox')).toBeNull();
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(calls.filter((call) => call.url === '/api/users/u-1/notification-preferences')).toHaveLength(1);
    expect(calls.every((call) => call.method !== 'PUT')).toBe(true);
  });

  it('says the defaults in English: the service’s lead days, no threshold, no quiet hours', async () => {
    signInAs('ADMIN');
    mockFetch({
      'GET /api/users/u-1/notification-preferences': () =>
        json(200, { ...CHOSEN, leadDays: null, lowBalanceThresholdMinor: null, quietHours: null }),
      'POST /api/users/u-1/notifications/search': EMPTY_PAGE,
    });
    renderInAdmin(<NotificationsTab />, {
      lang: 'en',
      resource: 'clients',
      record: CLIENT,
      withAuth: true,
      path: '/admin/clients/u-1/show/notifications',
    });
    const panel = await screen.findByTestId('client-notification-preferences');
    expect(await within(panel).findByTestId('client-preference-lead-days')).toHaveTextContent("The service's default");
    expect(within(panel).getByTestId('client-preference-threshold')).toHaveTextContent('No notice');
    expect(within(panel).getByTestId('client-preference-quiet-hours')).toHaveTextContent('None');
    expect(within(panel).getByRole('columnheader', { name: 'E-mail' })).toBeInTheDocument();
    expect(within(panel).getByRole('rowheader', { name: 'Payments and receipts' })).toBeInTheDocument();
  });

  it('says when the preferences cannot be loaded, and still lists what was sent', async () => {
    mockFetch({
      'GET /api/users/u-1/notification-preferences': () =>
        json(500, { status: 500, error: 'error.internal.server.error', message: 'boom' }),
      'POST /api/users/u-1/notifications/search': EMPTY_PAGE,
    });
    renderTab();
    expect(await screen.findByText('לא ניתן לטעון את העדפות ההתראות.')).toBeVisible();
    expect(await screen.findByTestId('client-notifications-empty')).toBeVisible();
  });
});

describe("a client's Telegram on the notifications tab (ADR 0107), read only", () => {
  const EMPTY_PAGE = () => json(200, { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 });
  const PREFERENCES = {
    channels: {},
    leadDays: null,
    lowBalanceThresholdMinor: null,
    quietHours: null,
  };

  function renderWith(telegram: object | undefined, lang: 'he' | 'en' = 'he') {
    mockFetch({
      'GET /api/users/u-1/notification-preferences': () => json(200, PREFERENCES),
      'POST /api/users/u-1/notifications/search': EMPTY_PAGE,
    });
    signInAs('MANAGER');
    return renderInAdmin(<NotificationsTab />, {
      lang,
      resource: 'clients',
      record: { ...CLIENT, telegram },
      withAuth: true,
      path: '/admin/clients/u-1/show/notifications',
    });
  }

  it('says Telegram is not linked', async () => {
    renderWith({ linked: false, linkedAt: null, blockedAt: null });
    const telegram = await screen.findByTestId('client-telegram');
    expect(telegram).toHaveAttribute('data-state', 'not_linked');
    expect(within(telegram).getByTestId('client-telegram-link')).toHaveTextContent('לא מקושר');
    expect(within(telegram).queryByTestId('client-telegram-blocked')).toBeNull();
  });

  it('says since when it is linked, and since when the bot is blocked, with no control', async () => {
    renderWith({ linked: true, linkedAt: '2026-11-02T09:00:00.000Z', blockedAt: '2026-11-20T12:00:00.000Z' }, 'en');
    const telegram = await screen.findByTestId('client-telegram');
    expect(telegram).toHaveAttribute('data-state', 'blocked');
    expect(within(telegram).getByTestId('client-telegram-link')).toHaveTextContent('Linked since 2 Nov 2026');
    expect(within(telegram).getByTestId('client-telegram-blocked')).toHaveTextContent(
      'Bot blocked since 20 Nov 2026: nothing reaches the chat until the client links again.',
    );
    expect(within(telegram).queryByRole('button')).toBeNull();
  });

  it('shows a linked chat that is not blocked without a warning, in Hebrew', async () => {
    renderWith({ linked: true, linkedAt: '2026-11-02T09:00:00.000Z', blockedAt: null });
    const telegram = await screen.findByTestId('client-telegram');
    expect(telegram).toHaveAttribute('data-state', 'linked');
    expect(within(telegram).getByTestId('client-telegram-link')).toHaveTextContent('מקושר מאז');
    expect(within(telegram).queryByTestId('client-telegram-blocked')).toBeNull();
  });

  it('shows nothing of Telegram when the record carries none', async () => {
    renderWith(undefined);
    await screen.findByTestId('client-notification-preferences');
    expect(screen.queryByTestId('client-telegram')).toBeNull();
  });
});
