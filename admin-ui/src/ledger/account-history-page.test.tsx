import { formatErrorMessage, type Language } from '@kupa/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeLanguage } from '../i18n/language';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { AccountHistoryPage } from './account-history-page';
import { accountHistoryPath } from './account-paths';

const ACCOUNT = 'user:0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11';
const MARCH = '2026-03-01T10:00:00.000Z';

function historyUrl(asOf: string, page = 0, size = 20) {
  return `/api/ledger/accounts/${encodeURIComponent(ACCOUNT)}/history?${new URLSearchParams({ asOf, page: String(page), size: String(size) })}`;
}

const HOLDER = { userUuid: ACCOUNT.slice('user:'.length), fullName: 'Dana Levi', email: 'dana@example.com' };
const OMER = { userUuid: '5f1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e', fullName: 'Omer Katz', email: 'omer@example.com' };

interface EntryShape {
  amount: number;
  balanceAfter: number;
  paymentId: number | null;
  counterAccount?: string;
  counterAccountHolder?: typeof OMER | null;
  eventType?: string;
}

function history(asOf: string, balance: number, entries: EntryShape[]) {
  return json(200, {
    account: ACCOUNT,
    holder: HOLDER,
    asOf,
    balance,
    entries: {
      content: entries.map((entry, index) => ({
        transactionId: `t-${index}`,
        account: ACCOUNT,
        counterAccount: 'world:manual',
        counterAccountHolder: null,
        occurredAt: '2026-01-15T08:00:00.000Z',
        eventType: 'ManualDepositRecorded',
        ...entry,
      })),
      page: 0,
      size: 20,
      totalElements: entries.length,
      totalPages: 1,
    },
  });
}

function renderAt(path: string, lang: Language = 'en') {
  return renderInAdmin(<AccountHistoryPage />, { lang, withAuth: true, path: `/admin${path}` });
}

/** A deposit from the manual account and a transfer to another client, as an account history shows them. */
const NAMED_ENTRIES: EntryShape[] = [
  {
    amount: -2.5,
    balanceAfter: 7.5,
    paymentId: 42,
    counterAccount: `user:${OMER.userUuid}`,
    counterAccountHolder: OMER,
    eventType: 'TransferSent',
  },
  { amount: 10, balanceAfter: 10, paymentId: 41 },
];

beforeEach(() => signInAs('ADMIN'));

describe('account history', () => {
  it('shows the balance and entries as of the instant in the address, and again for a newly chosen instant', async () => {
    const february = new Date('2026-02-01T09:30:00').toISOString();
    const { calls } = mockFetch({
      [`GET ${historyUrl(MARCH)}`]: () =>
        history(MARCH, 7.5, [
          { amount: 10, balanceAfter: 10, paymentId: 41 },
          { amount: -2.5, balanceAfter: 7.5, paymentId: 42 },
        ]),
      [`GET ${historyUrl(february)}`]: () => history(february, 10, [{ amount: 10, balanceAfter: 10, paymentId: 41 }]),
    });

    renderAt(accountHistoryPath(ACCOUNT, MARCH));

    await waitFor(() => expect(screen.getByTestId('account-history-balance')).toHaveAttribute('data-amount', '7.5'));
    expect(screen.getByTestId('account-history-balance').textContent).toBe('$7.50');
    const rows = screen.getAllByTestId('account-history-row');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('-$2.50');
    expect(rows[1]).toHaveTextContent('Manual deposits and withdrawals');
    expect(screen.getAllByTestId('account-history-payment').map((link) => link.textContent)).toEqual(['#41', '#42']);
    // The input shows the same instant in local wall-clock time.
    expect(new Date((screen.getByTestId('account-history-asof') as HTMLInputElement).value).toISOString()).toBe(MARCH);

    fireEvent.change(screen.getByTestId('account-history-asof'), { target: { value: '2026-02-01T09:30:00' } });

    await waitFor(() => expect(screen.getByTestId('account-history-balance')).toHaveAttribute('data-amount', '10'));
    expect(screen.getAllByTestId('account-history-row')).toHaveLength(1);
    expect(calls.map((call) => call.url)).toEqual([historyUrl(MARCH), historyUrl(february)]);
  });

  it('asks for the present moment when the address names no instant', async () => {
    // The page's messages and the API client's both follow the stored language.
    writeLanguage('en');
    const before = Date.now();
    const { calls } = mockFetch({});
    renderAt(accountHistoryPath(ACCOUNT));

    await waitFor(() => expect(calls).toHaveLength(1));
    const asOf = new URL(calls[0].url, 'http://localhost').searchParams.get('asOf') ?? '';
    expect(Date.parse(asOf)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
    // The mock has no such route and answers 404: the page shows the catalogue message instead of a balance.
    expect(await screen.findByTestId('account-history-error')).toHaveTextContent(
      formatErrorMessage('error.entity.not.found', 'en'),
    );
  });

  it('names the holder, the other side of each posting and the entry types in English', async () => {
    mockFetch({ [`GET ${historyUrl(MARCH)}`]: () => history(MARCH, 7.5, NAMED_ENTRIES) });
    renderAt(accountHistoryPath(ACCOUNT, MARCH));

    expect(await screen.findByTestId('account-history-holder')).toHaveTextContent('Dana Levi (dana@example.com)');
    const [transfer, deposit] = screen.getAllByTestId('account-history-row');
    const counterparts = screen.getAllByTestId('account-history-counter-account');
    expect(counterparts.map((link) => link.textContent)).toEqual([
      'Omer Katz (omer@example.com)',
      'Manual deposits and withdrawals',
    ]);
    // Each name leads to that account's history at the same instant; the raw account stays in the tooltip.
    expect(counterparts[0]).toHaveAttribute('href', `/admin${accountHistoryPath(`user:${OMER.userUuid}`, MARCH)}`);
    expect(within(counterparts[1]).getByTitle('world:manual')).toBeVisible();
    expect(within(transfer).getByTestId('account-history-entry-type')).toHaveTextContent('Transfer between clients');
    expect(within(deposit).getByTestId('account-history-entry-type')).toHaveTextContent('Manual deposit');
    expect(screen.queryByText(/ManualDepositRecorded|TransferSent/)).toBeNull();
    // The chosen account's option names its holder too.
    expect(screen.getByRole('option', { name: `Dana Levi (${ACCOUNT})` })).toBeInTheDocument();
  });

  it('speaks Hebrew, keeping names and e-mails in their own direction', async () => {
    mockFetch({ [`GET ${historyUrl(MARCH)}`]: () => history(MARCH, 7.5, NAMED_ENTRIES) });
    renderAt(accountHistoryPath(ACCOUNT, MARCH), 'he');

    await screen.findByTestId('account-history-holder');
    const counterparts = screen.getAllByTestId('account-history-counter-account');
    expect(counterparts.map((link) => link.textContent)).toEqual([
      'Omer Katz (omer@example.com)',
      'הפקדות ומשיכות ידניות',
    ]);
    expect(within(counterparts[0]).getByText('omer@example.com').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(screen.getAllByTestId('account-history-entry-type').map((cell) => cell.textContent)).toEqual([
      'העברה בין לקוחות',
      'הפקדה ידנית',
    ]);
  });
});
