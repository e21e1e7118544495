import { enumLabel } from '@kupa/proto';
import { screen, within } from '@testing-library/react';
import { useRouterProvider } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { AUDIT_LOG_ENTRY } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ActivityLogShow } from './activity-log-show';

const entry = {
  ...AUDIT_LOG_ENTRY,
  id: 'a-7',
  target: { type: 'PAYMENT', id: '42' },
  parent: { type: 'CLIENT', id: 'u-1' },
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
function renderEntry(id: string) {
  return renderInAdmin(<EntryRoute />, {
    resource: 'activity-log',
    lang: 'en',
    path: `/admin/activity-log/${id}/show`,
  });
}

beforeEach(() => signInAs('ADMIN'));

describe('activity log entry', () => {
  it('reads the entry by its id and shows who changed what, with each field before and after', async () => {
    const { calls } = mockFetch({ 'GET /api/audit-logs/a-7': () => json(200, entry) });
    renderEntry('a-7');

    const table = await screen.findByTestId('activity-log-changes');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['GET /api/audit-logs/a-7']);
    expect(screen.getByText('Avi Admin')).toBeVisible();
    expect(screen.getByText('PaymentStatusChanged')).toBeVisible();
    expect(screen.getByText(enumLabel('auditOperationType', 'UPDATED', 'en'))).toBeVisible();
    expect(screen.getByText(enumLabel('auditTargetType', 'PAYMENT', 'en'))).toBeVisible();
    expect(screen.getByText(enumLabel('auditTargetType', 'CLIENT', 'en'))).toBeVisible();

    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Field', 'Before', 'After']);
    const shown = within(table)
      .getAllByTestId('activity-log-change')
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    // Missing values read "(empty)" and objects are shown as JSON, so an auditor sees every change.
    expect(shown).toEqual([
      ['status', 'PENDING', 'SUCCESS'],
      ['comment', '(empty)', 'Checked with the bank'],
      ['amount', '10', '12.5'],
      ['meta', '{"source":"cashier"}', '(empty)'],
    ]);
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
  });
});
