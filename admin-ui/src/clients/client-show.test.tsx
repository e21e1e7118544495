import { enumLabel } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Resource, useRouterProvider } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { clients } from '.';

const client = { ...CLIENT, balance: 20 };

/** The clients resource as the console registers it, so each of its addresses resolves as in the app. */
function ClientsResource() {
  const { Routes, Route } = useRouterProvider();
  return (
    <Routes>
      <Route path="/admin/clients/*" element={<Resource name="clients" {...clients} />} />
    </Routes>
  );
}

function renderAt(path: string, onLocation?: (pathname: string) => void) {
  return renderInAdmin(<ClientsResource />, { lang: 'en', path, onLocation, withAuth: true });
}

/** A request that never answers: what the page shows meanwhile can only come from what it already holds. */
const unanswered = () => new Promise<Response>(() => undefined);

/** The status or role the profile shows; the raw value is in `data-value`. */
function shownValue(source: 'status' | 'role') {
  const label = screen.getByText(source === 'status' ? 'Status' : 'Role', { selector: 'span' });
  return label.closest('.ra-field')?.querySelector('[data-value]')?.getAttribute('data-value');
}

async function confirmDialog(user: ReturnType<typeof userEvent.setup>, button: string) {
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: button }));
}

beforeEach(() => signInAs('ADMIN'));

describe('client detail', () => {
  it('opens at /clients/{id}, the product address, with its tabs', async () => {
    const locations: string[] = [];
    mockFetch({ 'GET /api/users/u-1': () => json(200, client) });
    const user = userEvent.setup();
    renderAt('/admin/clients/u-1', (pathname) => locations.push(pathname));

    expect(await screen.findByTestId('client-profile')).toBeVisible();
    expect(screen.queryByTestId('client-list')).toBeNull();
    await user.click(screen.getByTestId('client-tab-notes'));
    expect(locations.at(-1)).toBe('/admin/clients/u-1/notes');
    expect(await screen.findByTestId('client-notes')).toBeInTheDocument();
  });

  it('also opens at /clients/{id}/show, the address react-admin links to', async () => {
    mockFetch({ 'GET /api/users/u-1': () => json(200, client) });
    renderAt('/admin/clients/u-1/show');
    expect(await screen.findByTestId('client-profile')).toBeVisible();
  });

  it('shows a block the moment the server agreed, before any re-read', async () => {
    mockFetch({
      'GET /api/users/u-1': [() => json(200, client), unanswered],
      'PUT /api/users/u-1/status': () => json(200, { ...client, status: 'BLOCKED' }),
    });
    const user = userEvent.setup();
    renderAt('/admin/clients/u-1');

    await screen.findByTestId('client-profile');
    expect(shownValue('status')).toBe('ACTIVE');
    await user.selectOptions(screen.getByTestId('status-select'), 'BLOCKED');
    await user.click(screen.getByTestId('status-save'));
    await confirmDialog(user, 'Save');

    await waitFor(() => expect(shownValue('status')).toBe('BLOCKED'));
    expect(screen.getByText(enumLabel('userStatus', 'BLOCKED', 'en'), { selector: '.MuiChip-label' })).toBeVisible();
    expect(screen.getByTestId('status-select')).toHaveValue('BLOCKED');
    expect(screen.getByTestId('status-save')).toBeDisabled();
  });

  it('shows a new role the moment the server agreed', async () => {
    mockFetch({
      'GET /api/users/u-1': [() => json(200, client), unanswered],
      'PUT /api/users/u-1/role': () => json(200, { ...client, role: 'AMBASSADOR' }),
    });
    const user = userEvent.setup();
    renderAt('/admin/clients/u-1');

    await screen.findByTestId('client-profile');
    await user.selectOptions(screen.getByTestId('role-select'), 'AMBASSADOR');
    await user.click(screen.getByTestId('role-save'));
    await confirmDialog(user, 'Save');

    await waitFor(() => expect(shownValue('role')).toBe('AMBASSADOR'));
    expect(screen.getByTestId('role-select')).toHaveValue('AMBASSADOR');
  });

  it('shows the new balance once a balance fix is booked', async () => {
    const { calls } = mockFetch({
      'GET /api/users/u-1': [() => json(200, client), () => json(200, { ...client, balance: 30 })],
      'POST /api/payments': () => json(201, { paymentId: 7, amount: 10, status: 'SUCCESS' }),
    });
    const user = userEvent.setup();
    renderAt('/admin/clients/u-1');

    expect(await screen.findByTestId('client-balance')).toHaveTextContent(formatAmount(20, 'en'));
    await user.click(await screen.findByTestId('fix-balance-open'));
    await user.type(screen.getByTestId('fix-balance-amount'), '10');
    await user.type(screen.getByTestId('fix-balance-comment'), 'Cash received at the desk');
    await user.click(screen.getByTestId('fix-balance-submit'));

    await waitFor(() => expect(screen.getByTestId('client-balance')).toHaveTextContent(formatAmount(30, 'en')));
    expect(calls.filter((call) => call.url === '/api/users/u-1')).toHaveLength(2);
  });
});
