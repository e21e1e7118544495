import { enumLabel } from '@kupa/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryStore } from 'react-admin';
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
    createdBy: { id: 's-2', name: 'Mira Manager' },
    operationType: 'CREATED',
    target: { type: 'PAYMENT', id: '42' },
    parent: { type: 'CLIENT', id: 'u-1' },
    eventType: 'ManualDepositBooked',
  },
];

/**
 * The sort ids `POST /api/audit-logs/search` accepts (SORT_COLUMNS of services/api/src/contexts/audit/queries/
 * search-audit-logs/search-audit-logs.handler.ts); it answers any other id with a 400.
 */
const API_SORT_IDS = ['createdAt', 'operationType', 'targetType'];

const searchAnswer = () => json(200, { content: entries, page: 0, size: 20, totalElements: 2, totalPages: 1 });

function renderList(shownFilters: string[] = []) {
  return renderInAdmin(<ActivityLogList />, {
    resource: 'activity-log',
    lang: 'en',
    path: listPathShowing(shownFilters),
  });
}

beforeEach(() => signInAs('ADMIN'));

describe('activity log list', () => {
  it('shows the entries newest first with their author, operation and target', async () => {
    const { calls } = mockFetch({ 'POST /api/audit-logs/search': searchAnswer });
    renderList();

    const rows = await screen.findAllByTestId('activity-log-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['a-1', 'a-2']);
    const first = within(rows[0]);
    expect(first.getByText('Avi Admin')).toBeVisible();
    expect(first.getByText(enumLabel('auditOperationType', 'UPDATED', 'en'))).toBeVisible();
    expect(first.getByText(enumLabel('auditTargetType', 'CLIENT', 'en'))).toBeVisible();
    expect(first.getByText('UserStatusChanged')).toBeVisible();
    expect(within(rows[1]).getByText('42')).toBeVisible();
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
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
