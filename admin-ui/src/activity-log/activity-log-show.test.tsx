import { CASHIER_PROVIDER_STATUS_LABELS, enumLabel, type Language } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import { useRouterProvider } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { AUDIT_LOG_ENTRY } from '../test/fixtures';
import { onAPhone } from '../test/phone';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ActivityLogShow } from './activity-log-show';

const entry = {
  ...AUDIT_LOG_ENTRY,
  id: 'a-7',
  target: { type: 'PAYMENT', id: '42', name: null, email: null },
  parent: { type: 'CLIENT', id: 'u-1', name: 'Dana Levi', email: 'dana@example.com' },
  eventType: 'PaymentStatusChanged',
  changes: [
    { field: 'status', oldValue: 'PENDING', newValue: 'SUCCESS' },
    { field: 'comment', oldValue: null, newValue: 'Checked with the bank' },
    { field: 'amount', oldValue: 10, newValue: 12.5 },
    { field: 'meta', oldValue: { source: 'cashier' }, newValue: '' },
  ],
};

/** The detail page reads the entry's id from its address; react-admin's own router components give it one. */
function EntryRoute() {
  const { Routes, Route } = useRouterProvider();
  return (
    <Routes>
      <Route path="/admin/activity-log/:id/show" element={<ActivityLogShow />} />
    </Routes>
  );
}

/** Opens the detail page at its address, as the list's row click does. */
function renderEntry(id: string, lang: Language = 'en') {
  // react-admin puts a page's title into the app bar's `react-admin-title` element; the layout is not rendered here.
  return renderInAdmin(
    <>
      <div id="react-admin-title" data-testid="page-title" />
      <EntryRoute />
    </>,
    {
      resource: 'activity-log',
      lang,
      path: `/admin/activity-log/${id}/show`,
      withAuth: true,
    },
  );
}

/** The changes table as text: one row of cells per change. */
function changesShown(table: HTMLElement): string[][] {
  return within(table)
    .getAllByTestId('activity-log-change')
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

beforeEach(() => signInAs('ADMIN'));

describe('activity log entry', () => {
  it('reads the entry by its id and tells it in words: sentence, named target and parent, labelled changes', async () => {
    const { calls } = mockFetch({ 'GET /api/audit-logs/a-7': () => json(200, entry) });
    renderEntry('a-7');

    const table = await screen.findByTestId('activity-log-changes');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/audit-logs/a-7']);
    expect(screen.getByTestId('activity-log-heading')).toHaveTextContent(
      'Payment #42 of Dana Levi (dana@example.com): status Pending → Success',
    );
    // The app bar's one line says what happened to what, with no amount or value to cut in half; the whole
    // sentence, its values wrapped in Unicode isolates instead of <bdi>, is the title's tooltip.
    await waitFor(() =>
      expect(screen.getByTestId('page-title').textContent?.replace(/[\u2066-\u2069]/g, '')).toBe(
        'Payment status changed · Payment #42',
      ),
    );
    const title = screen.getByTestId('activity-log-title');
    expect(title.getAttribute('title')?.replace(/[\u2066-\u2069]/g, '')).toMatch(
      /^Payment #42 of Dana Levi \(dana@example\.com\): status Pending → Success, /,
    );
    expect(title.getAttribute('title')).toContain('\u2066dana@example.com\u2069');
    expect(screen.getByTestId('activity-log-actor')).toHaveTextContent('Avi Admin');
    expect(screen.getByText('Payment status changed')).toHaveAttribute('data-event-type', 'PaymentStatusChanged');
    expect(screen.queryByText('PaymentStatusChanged')).toBeNull();
    expect(screen.getByText(enumLabel('auditOperationType', 'UPDATED', 'en'))).toBeVisible();
    await waitFor(() =>
      expect(screen.getByTestId('activity-log-target-field')).toHaveAttribute('href', '/admin/payments/42/show'),
    );
    expect(screen.getByTestId('activity-log-target-field')).toHaveTextContent('Payment #42');
    expect(screen.getByTestId('activity-log-parent-field')).toHaveAttribute('href', '/admin/clients/u-1/show');
    expect(screen.getByTestId('activity-log-parent-field')).toHaveTextContent('Dana Levi (dana@example.com)');

    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Field', 'Before', 'After']);
    // Fields by their labels, enum values by theirs, amounts as money; missing values read "(empty)", and what the
    // shared mapping does not know (`meta`) is shown as recorded, so an auditor sees every change.
    expect(changesShown(table)).toEqual([
      ['Status', 'Pending', 'Success'],
      ['Comment', '(empty)', 'Checked with the bank'],
      ['Amount', '$10.00', '$12.50'],
      ['meta', '{"source":"cashier"}', '(empty)'],
    ]);
    expect(
      within(table)
        .getAllByTestId('activity-log-change')
        .map((row) => row.dataset.field),
    ).toEqual(['status', 'comment', 'amount', 'meta']);
  });

  it('speaks Hebrew: the sentence, the field labels and the values', async () => {
    mockFetch({ 'GET /api/audit-logs/a-7': () => json(200, entry) });
    renderEntry('a-7', 'he');

    const table = await screen.findByTestId('activity-log-changes');
    expect(screen.getByTestId('activity-log-heading')).toHaveTextContent(
      'תשלום #42 של Dana Levi (dana@example.com): סטטוס ממתין ← הצליח',
    );
    expect(screen.getByText('שינוי סטטוס תשלום')).toBeVisible();
    expect(changesShown(table).slice(0, 3)).toEqual([
      ['סטטוס', 'ממתין', 'הצליח'],
      ['הערה', '(ריק)', 'Checked with the bank'],
      ['סכום', '10.00\u00a0$', '12.50\u00a0$'],
    ]);
    // Amounts keep their left-to-right order inside the Hebrew table.
    expect(within(table).getAllByTestId('change-after')[2].querySelector('bdi')).toHaveAttribute('dir', 'ltr');
  });

  it("keeps a person's e-mail whole with its brackets, where a line would break at its hyphen", async () => {
    const hyphenated = { ...entry, parent: { ...entry.parent, email: 'dana-levi@example.com' } };
    for (const lang of ['he', 'en'] as const) {
      mockFetch({ 'GET /api/audit-logs/a-7': () => json(200, hyphenated) });
      const { unmount } = renderEntry('a-7', lang);
      const parent = await screen.findByTestId('activity-log-parent');
      // The bracketed e-mail is one piece that does not wrap, so "(" never ends a line on its own.
      const bracketed = within(parent).getByText((_, element) => element?.textContent === '(dana-levi@example.com)');
      expect(bracketed).toHaveStyle({ whiteSpace: 'nowrap' });
      expect(parent).toHaveTextContent('Dana Levi (dana-levi@example.com)');
      unmount();
    }
  });

  it("names a package by its name and links it to the package's details", async () => {
    const packageEntry = {
      ...entry,
      id: 'a-9',
      target: { type: 'PACKAGE', id: 'p-1', name: 'Gold', email: null },
      parent: null,
      eventType: 'PaymentPlanUpdated',
      changes: [{ field: 'features', oldValue: ['HD'], newValue: ['HD', '4K'] }],
    };
    mockFetch({ 'GET /api/audit-logs/a-9': () => json(200, packageEntry) });
    renderEntry('a-9');

    expect(await screen.findByTestId('activity-log-heading')).toHaveTextContent('Package Gold: features HD → HD, 4K');
    expect(screen.getByTestId('activity-log-target-field')).toHaveAttribute('href', '/admin/packages/p-1/show');
  });

  it('names a deleted package by the name its entries recorded, with no link to a screen that is gone', async () => {
    const deletedEntry = {
      ...entry,
      id: 'a-10',
      operationType: 'DELETED',
      target: { type: 'PACKAGE', id: 'p-2', name: 'Silver', email: null, nameRecorded: true },
      parent: null,
      eventType: 'PaymentPlanDeleted',
      changes: [{ field: 'price', oldValue: 9.99, newValue: null }],
    };
    mockFetch({ 'GET /api/audit-logs/a-10': () => json(200, deletedEntry) });
    renderEntry('a-10');

    expect(await screen.findByTestId('activity-log-heading')).toHaveTextContent('Package Silver');
    expect(screen.getByTestId('activity-log-target-field')).not.toHaveAttribute('href');
    expect(screen.getByTestId('activity-log-heading')).not.toHaveTextContent('p-2');
  });

  it("tells a cashier report's provider state and coin in words, in Hebrew", async () => {
    const report = {
      ...entry,
      id: 'a-11',
      eventType: 'CashierPaymentReported',
      changes: [
        { field: 'providerStatus', oldValue: 'waiting', newValue: 'partially_paid' },
        { field: 'payCurrency', oldValue: null, newValue: 'usdttrc20' },
      ],
    };
    mockFetch({ 'GET /api/audit-logs/a-11': () => json(200, report) });
    renderEntry('a-11', 'he');

    const table = await screen.findByTestId('activity-log-changes');
    expect(changesShown(table)).toEqual([
      ['סטטוס אצל הספק', CASHIER_PROVIDER_STATUS_LABELS.waiting.he, CASHIER_PROVIDER_STATUS_LABELS.partially_paid.he],
      ['מטבע התשלום', '(ריק)', 'USDT (TRC20)'],
    ]);
    expect(table).not.toHaveTextContent('partially_paid');
  });

  it('says so when an entry records no field changes', async () => {
    mockFetch({
      'GET /api/audit-logs/a-8': () =>
        json(200, { ...entry, id: 'a-8', operationType: 'DELETED', parent: null, changes: [] }),
    });
    renderEntry('a-8');

    expect(await screen.findByText('This entry records no field changes.')).toBeVisible();
    expect(screen.queryByTestId('activity-log-changes')).not.toBeInTheDocument();
    expect(screen.getByText(enumLabel('auditOperationType', 'DELETED', 'en'))).toBeVisible();
    // Without a parent or a change its own sentence cannot be filled, so the entry reads by its event's name.
    expect(screen.getByTestId('activity-log-heading')).toHaveTextContent('Payment #42: Payment status changed');
  });

  describe('on a phone', () => {
    beforeEach(() => {
      onAPhone();
    });

    it('shows each change as a block, its label over a labelled before and after, with no squeezed table', async () => {
      mockFetch({ 'GET /api/audit-logs/a-7': () => json(200, entry) });
      renderEntry('a-7');

      const changes = await screen.findByTestId('activity-log-changes');
      expect(within(changes).queryByRole('table')).toBeNull();
      expect(changes.tagName).toBe('UL');
      const blocks = within(changes).getAllByTestId('activity-log-change');
      expect(blocks.map((block) => block.textContent)).toEqual([
        'StatusBeforePendingAfterSuccess',
        'CommentBefore(empty)AfterChecked with the bank',
        'AmountBefore$10.00After$12.50',
        'metaBefore{"source":"cashier"}After(empty)',
      ]);
      expect(within(blocks[1]).getByTestId('change-before')).toHaveTextContent('(empty)');
      expect(within(blocks[1]).getByTestId('change-after')).toHaveTextContent('Checked with the bank');
    });
  });
});
