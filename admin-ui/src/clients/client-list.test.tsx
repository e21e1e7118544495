import { enumLabel } from '@kupa/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch, type RecordedCall } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import {
  lastSearchBody,
  listPathShowing,
  pickOptions,
  sentSortIds,
  sortableColumnTitles,
  sortsSentByEachColumn,
} from '../test/list-interactions';
import { onAPhone } from '../test/phone';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ClientList } from './client-list';

const AMBASSADOR = {
  ...CLIENT,
  id: 'u-2',
  userUuid: 'u-2',
  email: 'noa@example.com',
  fullName: 'Noa Cohen',
  role: 'AMBASSADOR',
  status: 'BLOCKED',
  profileId: '87654321',
};

/**
 * The sort ids `POST /api/users/search` accepts (SORT_COLUMNS of services/api/src/contexts/identity/queries/
 * search-users/search-users.handler.ts); it answers any other id with a 400.
 */
const API_SORT_IDS = [
  'userCreatedAt',
  'email',
  'fullName',
  'firstName',
  'lastName',
  'status',
  'role',
  'balance',
  'profileId',
];

/** Answers a search with 45 clients in all: the page asked for holds the two fixtures, renamed after the page. */
function searchAnswer(call: RecordedCall) {
  const { page, size } = call.body as { page: number; size: number };
  const content = [CLIENT, AMBASSADOR].map((client) => ({
    ...client,
    userUuid: `${client.userUuid}-p${page}`,
    email: `p${page}-${client.email}`,
  }));
  return json(200, { content, page, size, totalElements: 45, totalPages: Math.ceil(45 / size) });
}

function renderList(shownFilters: string[] = []) {
  return renderInAdmin(<ClientList />, { resource: 'clients', lang: 'en', path: listPathShowing(shownFilters) });
}

beforeEach(() => signInAs('ADMIN'));

describe('clients list', () => {
  it('lists customers only, newest registration first, with their role and status', async () => {
    const { calls } = mockFetch({ 'POST /api/users/search': searchAnswer });
    renderList();

    const rows = await screen.findAllByTestId('clients-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['u-1-p0', 'u-2-p0']);
    expect(within(rows[1]).getByText('Noa Cohen')).toBeVisible();
    expect(within(rows[1]).getByText('p0-noa@example.com')).toBeVisible();
    expect(within(rows[1]).getByText(enumLabel('userRole', 'AMBASSADOR', 'en'))).toBeVisible();
    expect(within(rows[1]).getByText(enumLabel('userStatus', 'BLOCKED', 'en'))).toBeVisible();
    // With no role chosen, staff accounts stay out of the clients list.
    expect(calls.map((call) => call.body)).toEqual([
      { page: 0, size: 20, sorts: [{ id: 'userCreatedAt', desc: true }], roles: ['CLIENT', 'AMBASSADOR'] },
    ]);
  });

  it('sends the keyword, statuses, roles and registration dates of the filter form', async () => {
    const { calls } = mockFetch({ 'POST /api/users/search': searchAnswer });
    const user = userEvent.setup();
    renderList(['statuses', 'roles', 'registrationDateFrom', 'registrationDateTo']);
    await screen.findAllByTestId('clients-row');

    // Only the customer roles are offered: the clients list never shows staff.
    await user.click(screen.getByRole('combobox', { name: 'Roles' }));
    const roleOptions = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(roleOptions.map((option) => option.textContent)).toEqual([
      enumLabel('userRole', 'CLIENT', 'en'),
      enumLabel('userRole', 'AMBASSADOR', 'en'),
    ]);
    await user.click(roleOptions[1]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    await pickOptions(user, 'Statuses', [
      enumLabel('userStatus', 'ACTIVE', 'en'),
      enumLabel('userStatus', 'BLOCKED', 'en'),
    ]);
    fireEvent.change(screen.getByLabelText('Registered from'), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('Registered until'), { target: { value: '2026-01-31' } });
    await user.type(screen.getByTestId('clients-search'), ' dana ');

    await waitFor(() =>
      expect(lastSearchBody(calls)).toEqual({
        page: 0,
        size: 20,
        sorts: [{ id: 'userCreatedAt', desc: true }],
        keyWord: 'dana',
        statuses: ['ACTIVE', 'BLOCKED'],
        roles: ['AMBASSADOR'],
        registrationDate: {
          from: new Date('2026-01-01T00:00:00.000').toISOString(),
          to: new Date('2026-01-31T23:59:59.999').toISOString(),
        },
      }),
    );
    // Four filters typed and picked one after another: twice the usual bound, which a busy machine needs.
  }, 40_000);

  it("shows each client's balance and who referred them, the referrer a link to their detail", async () => {
    mockFetch({
      'POST /api/users/search': () =>
        json(200, {
          content: [
            { ...CLIENT, balance: -12.5, referrer: null },
            {
              ...AMBASSADOR,
              balance: 1234.5,
              referrer: { userUuid: 'u-9', profileId: '99999999', fullName: 'Tal Gil', email: 'tal@example.com' },
            },
          ],
          page: 0,
          size: 20,
          totalElements: 2,
          totalPages: 1,
        }),
    });
    renderList();

    const rows = await screen.findAllByTestId('clients-row');
    expect(within(rows[0]).getByTestId('clients-balance')).toHaveAttribute('data-amount', '-12.5');
    expect(within(rows[1]).getByTestId('clients-balance')).toHaveAttribute('data-amount', '1234.5');
    expect(within(rows[0]).getByTestId('client-referrer-none')).toHaveTextContent('—');
    const link = within(rows[1]).getByTestId('client-referrer-link');
    expect(link).toHaveTextContent('Tal Gil');
    expect(link).toHaveAttribute('href', '/admin/clients/u-9/show');
    expect(link).toHaveAttribute('title', 'tal@example.com');
  });

  it('sorts by each sortable column under a sort id the API accepts', async () => {
    const { calls } = mockFetch({ 'POST /api/users/search': searchAnswer });
    renderList();
    await screen.findAllByTestId('clients-row');

    // The profile ID title is plain text: the list does not offer that sort.
    expect(sortableColumnTitles()).toEqual(['Full name', 'Email', 'Role', 'Status', 'Balance', 'Registration date']);
    expect(await sortsSentByEachColumn(calls)).toEqual({
      'Full name': [{ id: 'fullName', desc: false }],
      Email: [{ id: 'email', desc: false }],
      Role: [{ id: 'role', desc: false }],
      Status: [{ id: 'status', desc: false }],
      // The server sorts every client by balance, not the page in hand (ADR 0078).
      Balance: [{ id: 'balance', desc: false }],
      // The list starts with the newest registrations, so a click turns it around.
      'Registration date': [{ id: 'userCreatedAt', desc: false }],
    });
    expect(API_SORT_IDS).toEqual(expect.arrayContaining(sentSortIds(calls)));
  });

  it('pages through the results with a 0-based page number and shows the page it got', async () => {
    const { calls } = mockFetch({ 'POST /api/users/search': searchAnswer });
    const user = userEvent.setup();
    renderList();
    await screen.findAllByTestId('clients-row');
    expect(screen.getByText('1-20 of 45')).toBeVisible();
    // The page-size choice shows the size the list asks for (react-admin's own choices lack 20).
    expect(screen.getByRole('combobox', { name: /rows per page/i })).toHaveTextContent('20');

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));

    await waitFor(() =>
      expect(screen.getAllByTestId('clients-row').map((row) => row.getAttribute('data-id'))).toEqual([
        'u-1-p1',
        'u-2-p1',
      ]),
    );
    expect(lastSearchBody(calls)).toMatchObject({ page: 1, size: 20, sorts: [{ id: 'userCreatedAt', desc: true }] });
    expect(screen.getByText('21-40 of 45')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Go to page 3' }));
    await waitFor(() => expect(lastSearchBody(calls).page).toBe(2));
    expect(await screen.findByText('41-45 of 45')).toBeVisible();
  });

  describe('on a phone', () => {
    beforeEach(() => {
      onAPhone();
    });

    it('shows one card per client, linking to its detail, and keeps every filter but the search in a drawer', async () => {
      const { calls } = mockFetch({ 'POST /api/users/search': searchAnswer });
      const user = userEvent.setup();
      renderList();

      const cards = await screen.findAllByTestId('clients-card');
      expect(screen.queryByTestId('clients-row')).not.toBeInTheDocument();
      expect(cards.map((card) => card.textContent)).toEqual([
        `${CLIENT.fullName}${enumLabel('userStatus', CLIENT.status, 'en')}`,
        `Noa Cohen${enumLabel('userStatus', 'BLOCKED', 'en')}`,
      ]);
      expect(cards[1].closest('a')).toHaveAttribute('href', '/admin/clients/u-2-p0/show');
      expect(screen.getByTestId('clients-search')).toBeVisible();
      expect(screen.queryByRole('combobox', { name: 'Statuses' })).not.toBeInTheDocument();

      await user.click(screen.getByTestId('filters-open'));
      const drawer = await screen.findByRole('dialog', { name: 'Filters' });
      expect(within(drawer).getByLabelText('Registered from')).toBeVisible();
      await pickOptions(user, 'Statuses', [enumLabel('userStatus', 'BLOCKED', 'en')]);
      await waitFor(() => expect(lastSearchBody(calls)).toMatchObject({ statuses: ['BLOCKED'] }));
      await user.click(within(drawer).getByTestId('filters-done'));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      // The button counts the filters in use.
      expect(screen.getByTestId('filters-open')).toHaveTextContent(/1/);
    });
  });
});
