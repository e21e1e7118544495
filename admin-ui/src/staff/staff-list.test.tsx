import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { isForbiddenPath, sidebarForRole } from '../resources';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { lastSearchBody } from '../test/list-interactions';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { StaffList } from './staff-list';

const MANAGER = {
  ...CLIENT,
  id: 's-1',
  userUuid: 's-1',
  email: 'maya@kupa.example',
  fullName: 'Maya Manager',
  role: 'MANAGER',
  twoFactorEnabled: true,
};
const ADMIN = {
  ...MANAGER,
  id: 's-2',
  userUuid: 's-2',
  email: 'adi@kupa.example',
  fullName: 'Adi Admin',
  role: 'ADMIN',
  twoFactorEnabled: false,
};

function renderList(onLocation?: (pathname: string) => void) {
  return renderInAdmin(<StaffList />, { resource: 'staff', lang: 'en', path: '/admin/staff', onLocation });
}

beforeEach(() => signInAs('ADMIN'));

describe('staff list', () => {
  it('lists staff accounts from the admins-only search, with role and two-factor state, rows opening the detail', async () => {
    const { calls } = mockFetch({
      'POST /api/users/staff/search': () =>
        json(200, { content: [MANAGER, ADMIN], page: 0, size: 20, totalElements: 2, totalPages: 1 }),
    });
    const user = userEvent.setup();
    let pathname = '';
    renderList((at) => (pathname = at));

    const rows = await screen.findAllByTestId('staff-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['s-1', 's-2']);
    expect(within(rows[0]).getByText('Maya Manager')).toBeVisible();
    expect(within(rows[0]).getByTestId('staff-two-factor')).toHaveTextContent('On');
    expect(within(rows[1]).getByTestId('staff-two-factor')).toHaveTextContent('Off');
    expect(calls[0].body).toMatchObject({ page: 0, size: 20, sorts: [{ id: 'userCreatedAt', desc: true }] });
    // The role, password and two-factor actions are on the account's detail; the list says where.
    expect(screen.getByTestId('staff-hint')).toHaveTextContent(/reset two-factor sign-in/);

    await user.click(within(rows[0]).getByText('Maya Manager'));
    await waitFor(() => expect(pathname).toBe('/admin/clients/s-1/show'));
  });

  it('sends the keyword to the staff search, never the clients search', async () => {
    const { calls } = mockFetch({
      'POST /api/users/staff/search': () =>
        json(200, { content: [MANAGER], page: 0, size: 20, totalElements: 1, totalPages: 1 }),
    });
    const user = userEvent.setup();
    renderList();
    await screen.findAllByTestId('staff-row');

    await user.type(screen.getByTestId('staff-search'), 'maya');
    await waitFor(() => expect(lastSearchBody(calls)).toMatchObject({ keyWord: 'maya' }));
    expect(calls.every((call) => call.url === '/api/users/staff/search')).toBe(true);
  });

  it("is an admin's: in the admin sidebar only, its address leading a manager home", () => {
    expect(sidebarForRole('ADMIN')).toContain('staff');
    expect(sidebarForRole('MANAGER')).not.toContain('staff');
    expect(isForbiddenPath('MANAGER', '/staff')).toBe(true);
    expect(isForbiddenPath('ADMIN', '/staff')).toBe(false);
  });
});
