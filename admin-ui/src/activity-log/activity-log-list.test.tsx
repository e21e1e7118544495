import { enumLabel, type Language, SYSTEM_ACTOR_ID, SYSTEM_ACTOR_NAME } from '@kupa/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryStore, usePermissions } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { AUDIT_LOG_ENTRY } from '../test/fixtures';
import {
  lastSearchBody,
  listPathShowing,
  pickOptions,
  sentSortIds,
  sortableColumnTitles,
  sortsSentByEachColumn,
} from '../test/list-interactions';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ActivityLogList } from './activity-log-list';

const entries = [
  AUDIT_LOG_ENTRY,
  {
    ...AUDIT_LOG_ENTRY,
    id: 'a-2',
    createdAt: '2026-03-01T10:00:00Z',
    createdBy: { id: SYSTEM_ACTOR_ID, name: SYSTEM_ACTOR_NAME },
    operationType: 'UPDATED',
    target: { type: 'PAYMENT', id: '42', name: null, email: null },
    parent: { type: 'CLIENT', id: 'u-1', name: 'Dana Levi', email: 'dana@example.com' },
    changes: [{ field: 'status', oldValue: 'SUCCESS', newValue: 'FAILED' }],
    eventType: 'PaymentStatusChanged',
  },
];

/**
 * The sort ids `POST /api/audit-logs/search` accepts (SORT_COLUMNS of services/api/src/contexts/audit/queries/
 * search-audit-logs/search-audit-logs.handler.ts); it answers any other id with a 400.
 */
const API_SORT_IDS = ['createdAt', 'operationType', 'targetType'];

const searchAnswer = () => json(200, { content: entries, page: 0, size: 20, totalElements: 2, totalPages: 1 });

/** Shows the role react-admin knows, so a test can wait until permission-dependent links have settled. */
function PermissionsProbe() {
  const { permissions } = usePermissions<string | undefined>();
  return <span data-testid="permissions">{permissions ?? ''}</span>;
}

function renderList(shownFilters: string[] = [], options: { lang?: Language; onLocation?(path: string): void } = {}) {
  return renderInAdmin(
    <>
      <ActivityLogList />
      <PermissionsProbe />
    </>,
    {
      resource: 'activity-log',
      lang: options.lang ?? 'en',
      path: listPathShowing(shownFilters),
      withAuth: true,
      onLocation: options.onLocation,
    },
  );
}

beforeEach(() => signInAs('ADMIN'));

describe('activity log list', () => {
  it('tells each entry in a sentence that names its target and parent as links, newest first', async () => {
    const { calls } = mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    renderList();

    const rows = await screen.findAllByTestId('activity-log-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['a-1', 'a-2']);
    const first = within(rows[0]);
    expect(first.getByTestId('activity-log-actor')).toHaveTextContent('Avi Admin');
    expect(first.getByTestId('activity-log-actor')).toHaveAttribute('href', '/admin/clients/s-1/show');
    expect(first.getByText(enumLabel('auditOperationType', 'UPDATED', 'en'))).toBeVisible();
    expect(first.getByText(enumLabel('auditTargetType', 'CLIENT', 'en'))).toBeVisible();
    expect(first.getByTestId('activity-log-sentence')).toHaveTextContent(
      'Dana Levi (dana@example.com): status Active → Blocked',
    );
    expect(first.getByTestId('activity-log-target')).toHaveAttribute('href', '/admin/clients/u-1/show');

    const second = within(rows[1]);
    expect(second.getByTestId('activity-log-actor')).toHaveTextContent('System');
    expect(second.getByTestId('activity-log-actor').tagName).not.toBe('A');
    expect(second.getByTestId('activity-log-sentence')).toHaveTextContent(
      'Payment #42 of Dana Levi (dana@example.com): status Success → Failed',
    );
    // An admin opens payments, so the payment is a link too.
    // Permissions arrive from the auth provider after the first render.
    await waitFor(() =>
      expect(second.getByTestId('activity-log-target')).toHaveAttribute('href', '/admin/payments/42/show'),
    );
    expect(second.getByTestId('activity-log-parent')).toHaveAttribute('href', '/admin/clients/u-1/show');
    // No event type, enum value or uuid shows raw.
    for (const raw of ['PaymentStatusChanged', 'UserStatusChanged', 'SUCCESS', 'BLOCKED', 'u-1', 'SYSTEM']) {
      expect(rows.some((row) => new RegExp(`\\b${raw}\\b`).test(row.textContent ?? ''))).toBe(false);
    }
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
  });

  it('speaks Hebrew, keeping names, e-mails and numbers in their own direction; a manager gets no payment link', async () => {
    signInAs('MANAGER');
    mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    renderList([], { lang: 'he' });

    const rows = await screen.findAllByTestId('activity-log-row');
    await waitFor(() => expect(screen.getByTestId('permissions')).toHaveTextContent('MANAGER'));
    expect(within(rows[0]).getByTestId('activity-log-sentence')).toHaveTextContent(
      'Dana Levi (dana@example.com): סטטוס פעיל ← חסום',
    );
    const sentence = within(rows[1]).getByTestId('activity-log-sentence');
    expect(sentence).toHaveTextContent('תשלום #42 של Dana Levi (dana@example.com): סטטוס הצליח ← נכשל');
    expect(within(rows[1]).getByTestId('activity-log-actor')).toHaveTextContent('המערכת');
    expect(within(sentence).getByText('dana@example.com').closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(within(sentence).getByText('#42').closest('bdi')).toHaveAttribute('dir', 'ltr');
    // Managers have no payments screen: the payment is named, not linked; its client still is.
    expect(within(rows[1]).getByTestId('activity-log-target').tagName).toBe('SPAN');
    expect(within(rows[1]).getByTestId('activity-log-parent')).toHaveAttribute('href', '/admin/clients/u-1/show');
  });

  it('opens what a link names from inside a row, and the entry from anywhere else in it', async () => {
    mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    const visited: string[] = [];
    const user = userEvent.setup();
    renderList([], { onLocation: (path) => visited.push(path) });

    const rows = await screen.findAllByTestId('activity-log-row');
    await user.click(within(rows[0]).getByTestId('activity-log-target'));
    await waitFor(() => expect(visited.at(-1)).toBe('/admin/clients/u-1/show'));
    expect(visited).not.toContain('/admin/activity-log/a-1/show');

    // The time cell holds no link.
    await user.click(within(screen.getAllByTestId('activity-log-row')[1]).getAllByRole('cell')[0]);
    await waitFor(() => expect(visited.at(-1)).toBe('/admin/activity-log/a-2/show'));
  });

  it('sends every filter of the form in the search body', async () => {
    const { calls } = mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    const user = userEvent.setup();
    renderList(['targetAndParentTypes', 'targetAndParentIds', 'operationTypes']);
    await screen.findAllByTestId('activity-log-row');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('Until'), { target: { value: '2026-03-31' } });
    await pickOptions(user, 'Target or parent types', [
      enumLabel('auditTargetType', 'CLIENT', 'en'),
      enumLabel('auditTargetType', 'PAYMENT', 'en'),
    ]);
    await user.type(screen.getByTestId('activity-log-ids'), 'u-1, 42');
    await pickOptions(user, 'Operations', [enumLabel('auditOperationType', 'DELETED', 'en')]);

    await waitFor(() =>
      expect(lastSearchBody(calls)).toEqual({
        page: 0,
        size: 20,
        sorts: [{ id: 'createdAt', desc: true }],
        createdAt: {
          from: new Date('2026-03-01T00:00:00.000').toISOString(),
          to: new Date('2026-03-31T23:59:59.999').toISOString(),
        },
        targetAndParentTypes: ['CLIENT', 'PAYMENT'],
        targetAndParentIds: ['u-1', '42'],
        operationTypes: ['DELETED'],
      }),
    );
  });

  it('sorts only by columns the API can sort, under the sort ids it accepts', async () => {
    const { calls } = mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    renderList();
    await screen.findAllByTestId('activity-log-row');

    // The author, target id and event titles are plain text: the API cannot sort by them.
    expect(sortableColumnTitles()).toEqual(['Time', 'Operation', 'Target type']);
    expect(await sortsSentByEachColumn(calls)).toEqual({
      // The list starts sorted by time, newest first, so a click turns it around.
      Time: [{ id: 'createdAt', desc: false }],
      Operation: [{ id: 'operationType', desc: false }],
      'Target type': [{ id: 'targetType', desc: false }],
    });
    expect(API_SORT_IDS).toEqual(expect.arrayContaining(sentSortIds(calls)));
  });

  it('asks for the API order when a sort it cannot do was kept from an earlier visit', async () => {
    const { calls } = mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    // react-admin keeps each list's parameters between visits, so a sort the list no longer offers can still arrive
    // from an older visit; sent as is, the API would refuse it with a 400 on every visit.
    const store = memoryStore({
      'activity-log.listParams': { sort: 'createdBy.name', order: 'ASC', page: 1, perPage: 20, filter: {} },
    });
    renderInAdmin(<ActivityLogList />, { resource: 'activity-log', lang: 'en', store });

    expect(await screen.findAllByTestId('activity-log-row')).toHaveLength(2);
    expect(calls.map((call) => call.body)).toEqual([{ page: 0, size: 20, sorts: [] }]);
  });
});
