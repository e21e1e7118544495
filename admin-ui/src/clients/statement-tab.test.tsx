import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccountStatement } from '@kupa/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { StatementTab } from './statement-tab';

const STATEMENT: AccountStatement = {
  userUuid: 'u-1',
  account: 'user:u-1',
  from: '2026-04-01T00:00:00.000Z',
  to: '2026-04-21T00:00:00.000Z',
  language: 'he',
  openingBalance: 10,
  closingBalance: 12.5,
  creditsTotal: 5,
  debitsTotal: 2.5,
  lines: [
    {
      occurredAt: '2026-04-03T10:00:00.000Z',
      paymentId: 12,
      eventType: 'TransferSent',
      description: 'תשלום \u2066#12\u2069: העברה יוצאת',
      amount: -2.5,
      balanceAfter: 7.5,
    },
    {
      occurredAt: '2026-04-05T10:00:00.000Z',
      paymentId: 14,
      eventType: 'ManualDepositRecorded',
      description: 'תשלום \u2066#14\u2069: הפקדה ידנית',
      amount: 5,
      balanceAfter: 12.5,
    },
  ],
};

/** The month so far, in this browser's days, as the tab asks for it on 20 April. */
const period = { from: new Date(2026, 3, 1).toISOString(), to: new Date(2026, 3, 21).toISOString() };
const endOfToday = new Date(new Date(2026, 3, 21).getTime() - 1).toISOString();
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const STATEMENT_URL = `GET /api/users/u-1/statement?${new URLSearchParams(period)}`;
const CSV_URL = `GET /api/users/u-1/statement.csv?${new URLSearchParams({ ...period, timeZone })}`;
const PDF_URL = `GET /api/users/u-1/statement.pdf?${new URLSearchParams({ ...period, timeZone })}`;
const BALANCE_URL = `GET /api/users/u-1/balance?${new URLSearchParams({ at: endOfToday })}`;

function renderTab() {
  signInAs('MANAGER');
  return renderInAdmin(<StatementTab />, {
    resource: 'clients',
    record: CLIENT,
    withAuth: true,
    path: '/admin/clients/u-1/show/statement',
  });
}

describe("a client's statement tab", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 3, 20, 12, 0) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a manager the month so far: opening, each posting in words with its balance, closing', async () => {
    const { calls } = mockFetch({
      [STATEMENT_URL]: () => json(200, STATEMENT),
      [BALANCE_URL]: () => json(200, { userUuid: 'u-1', at: endOfToday, balance: 12.5 }),
    });
    renderTab();
    const lines = await screen.findAllByTestId('statement-line');
    expect(screen.getByTestId('statement-opening')).toHaveTextContent('10.00');
    expect(screen.getByTestId('statement-closing')).toHaveTextContent('12.50');
    expect(lines.map((line) => within(line).getByTestId('statement-line-description').textContent)).toEqual([
      STATEMENT.lines[0].description,
      STATEMENT.lines[1].description,
    ]);
    expect(within(lines[0]).getByTestId('statement-line-amount')).toHaveAttribute('data-amount', '-2.5');
    expect(within(lines[1]).getByTestId('statement-line-balance')).toHaveTextContent('12.50');
    // The descriptions come in the console's language.
    const asked = calls.find((call) => `${call.method} ${call.url}` === STATEMENT_URL)!;
    expect(asked.headers.get('Accept-Language')).toBe('he');
    expect(await screen.findByTestId('balance-on-answer')).toHaveTextContent('12.50');
  });

  it('downloads the CSV in the console language and this browser time zone', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:statement';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { calls } = mockFetch({
      [STATEMENT_URL]: () => json(200, STATEMENT),
      [BALANCE_URL]: () => json(200, { userUuid: 'u-1', at: endOfToday, balance: 12.5 }),
      [CSV_URL]: () => new Response('\uFEFFמועד,תיאור\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    });
    const user = userEvent.setup();
    renderTab();
    await screen.findAllByTestId('statement-line');
    await user.click(screen.getByTestId('statement-csv'));
    await waitFor(() => expect(created).toHaveLength(1));
    const csv = calls.find((call) => `${call.method} ${call.url}` === CSV_URL)!;
    expect(csv.headers.get('Accept-Language')).toBe('he');
  });

  it('downloads the PDF beside the CSV, in the console language and this browser time zone', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:statement';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { calls } = mockFetch({
      [STATEMENT_URL]: () => json(200, STATEMENT),
      [BALANCE_URL]: () => json(200, { userUuid: 'u-1', at: endOfToday, balance: 12.5 }),
      [PDF_URL]: () =>
        new Response('%PDF-1.7 statement', { status: 200, headers: { 'Content-Type': 'application/pdf' } }),
    });
    const user = userEvent.setup();
    renderTab();
    await screen.findAllByTestId('statement-line');
    expect(screen.getByTestId('statement-pdf')).toHaveTextContent('הורדה כ-PDF');
    await user.click(screen.getByTestId('statement-pdf'));
    await waitFor(() => expect(created).toHaveLength(1));
    const pdf = calls.find((call) => `${call.method} ${call.url}` === PDF_URL)!;
    expect(pdf.headers.get('Accept-Language')).toBe('he');
    expect(await created[0].text()).toBe('%PDF-1.7 statement');
    expect(names).toEqual(['statement-2026-04-01_2026-04-20.pdf']);
  });

  it('says what is wrong with a reversed period instead of asking for it', async () => {
    const { calls } = mockFetch({
      [STATEMENT_URL]: () => json(200, STATEMENT),
      [BALANCE_URL]: () => json(200, { userUuid: 'u-1', at: endOfToday, balance: 12.5 }),
    });
    const user = userEvent.setup();
    renderTab();
    await screen.findAllByTestId('statement-line');
    const from = screen.getByTestId('statement-from');
    await user.clear(from);
    await user.type(from, '2026-04-25');
    expect(await screen.findByTestId('statement-period-problem')).toHaveTextContent('ההתחלה לא יכולה להיות אחרי הסוף');
    expect(calls.filter((call) => call.url.includes('from=2026-04-2'))).toEqual([]);
  });
});
