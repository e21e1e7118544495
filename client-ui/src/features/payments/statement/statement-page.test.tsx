import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccountStatement } from '@kupa/proto';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../../test/render-app';

const STATEMENT: AccountStatement = {
  userUuid: CLIENT_SESSION.userUuid,
  account: `user:${CLIENT_SESSION.userUuid}`,
  from: '2026-04-01T00:00:00.000Z',
  to: '2026-05-01T00:00:00.000Z',
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

const statementPath = `/api/users/${CLIENT_SESSION.userUuid}/statement`;
const pathOf = (call: RecordedCall) => call.url.split('?')[0];
const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);

function mockStatementApi(statement: () => Response = () => jsonResponse(200, STATEMENT)) {
  return mockFetch(async (call) => {
    const path = pathOf(call);
    if (path === '/api/users/me') return jsonResponse(200, makeUser());
    if (path === '/api/payments/search') return jsonResponse(200, pageOf([makePayment()]));
    if (path === statementPath) return statement();
    if (path === `${statementPath}.csv`) return new Response('\uFEFFמועד,תיאור\r\n', { status: 200 });
    if (path === `${statementPath}.pdf`)
      return new Response('%PDF-1.7 statement', { status: 200, headers: { 'Content-Type': 'application/pdf' } });
    if (path === `/api/users/${CLIENT_SESSION.userUuid}/balance`)
      return jsonResponse(200, { userUuid: CLIENT_SESSION.userUuid, at: queryOf(call).at, balance: 7.5 });
    return errorResponse(404, 'error.entity.not.found');
  });
}

describe('the statement screen', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 3, 20, 12, 0) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens from the payments page and shows the month so far: opening, each posting with its balance, closing', async () => {
    signInAs();
    useLangStore.getState().setLang('he');
    const { calls } = mockStatementApi();
    const user = userEvent.setup();
    renderApp('/payments');
    await user.click(await screen.findByTestId('statement-open'));
    expect(await screen.findByRole('heading', { level: 1, name: 'דוח תנועות' })).toBeInTheDocument();
    await screen.findByTestId('statement');
    expect(screen.getByTestId('statement-opening')).toHaveTextContent('10.00');
    expect(screen.getByTestId('statement-closing')).toHaveTextContent('12.50');
    const lines = within(screen.getByTestId('statement-lines')).getAllByTestId('statement-line');
    expect(lines.map((line) => within(line).getByTestId('statement-line-description').textContent)).toEqual([
      STATEMENT.lines[0].description,
      STATEMENT.lines[1].description,
    ]);
    expect(within(lines[0]).getByTestId('statement-line-amount')).toHaveTextContent(/-\$?2\.50|−/);
    expect(within(lines[1]).getByTestId('statement-line-balance')).toHaveTextContent('12.50');

    // The days are the browser's: the 1st of the month to the end of today, asked in the page's language.
    const asked = calls.find((call) => pathOf(call) === statementPath)!;
    expect(queryOf(asked)).toEqual({
      from: new Date(2026, 3, 1).toISOString(),
      to: new Date(2026, 3, 21).toISOString(),
    });
    expect(asked.headers['accept-language']).toBe('he');
    // The balance on today's date, at its last instant.
    expect(await screen.findByTestId('balance-on-answer')).toHaveTextContent('7.50');
    const balance = calls.find((call) => pathOf(call).endsWith('/balance'))!;
    expect(queryOf(balance).at).toBe(new Date(new Date(2026, 3, 21).getTime() - 1).toISOString());
  });

  it('downloads the CSV in the page language and time zone, with the byte order mark kept', async () => {
    signInAs();
    useLangStore.getState().setLang('en');
    const { calls } = mockStatementApi();
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:statement'),
        revokeObjectURL: () => {},
      }),
    );
    const user = userEvent.setup();
    renderApp('/payments/statement');
    await screen.findByTestId('statement');
    await user.click(screen.getByTestId('statement-csv'));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const csv = calls.find((call) => pathOf(call) === `${statementPath}.csv`)!;
    expect(queryOf(csv)).toMatchObject({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(csv.headers['accept-language']).toBe('en');
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(blobs[0]);
    });
    // The server's mark, dropped by the fetch's decoding, is back in front, once.
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe('\uFEFFמועד,תיאור\r\n');
  });

  it('downloads the PDF beside the CSV, in the page language and time zone', async () => {
    signInAs();
    useLangStore.getState().setLang('he');
    const { calls } = mockStatementApi();
    const saved: Array<{ blob: Blob; name: string }> = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => (saved.push({ blob, name: '' }), 'blob:statement'),
        revokeObjectURL: () => {},
      }),
    );
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.at(-1)!.name = this.download;
    });
    const user = userEvent.setup();
    renderApp('/payments/statement');
    await screen.findByTestId('statement');
    expect(screen.getByTestId('statement-pdf')).toHaveTextContent('הורדה כ-PDF');
    await user.click(screen.getByTestId('statement-pdf'));
    await waitFor(() => expect(saved).toHaveLength(1));
    const pdf = calls.find((call) => pathOf(call) === `${statementPath}.pdf`)!;
    expect(queryOf(pdf)).toEqual({
      from: new Date(2026, 3, 1).toISOString(),
      to: new Date(2026, 3, 21).toISOString(),
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(pdf.headers['accept-language']).toBe('he');
    expect(await saved[0].blob.text()).toBe('%PDF-1.7 statement');
    expect(saved[0].name).toBe('statement-2026-04-01_2026-04-20.pdf');
    clicked.mockRestore();
  });

  it("explains the server's refusal of a period in the page language", async () => {
    signInAs();
    useLangStore.getState().setLang('en');
    mockStatementApi(() => errorResponse(400, 'error.statement.too.many.postings'));
    renderApp('/payments/statement');
    expect(await screen.findByTestId('statement-error')).toHaveTextContent(/more than/);
  });
});
