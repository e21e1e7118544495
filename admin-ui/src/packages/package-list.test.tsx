import { enumLabel, formatErrorMessage, type UserRole } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authProvider } from '../providers/auth-provider';
import { formatAmount } from '../shared/money';
import { json, mockFetch, type RecordedCall } from '../test/fetch-mock';
import { PACKAGE } from '../test/fixtures';
import { lastSearchBody, pickOptions, sentSortIds, sortsSentByEachColumn } from '../test/list-interactions';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PackageList } from './package-list';

const gold = { ...PACKAGE, features: [...PACKAGE.features], durationInMonths: 12, price: 1234.5 };
const bronze = {
  ...gold,
  id: 'p-2',
  name: 'ברונזה',
  durationInMonths: 1,
  price: 5,
  status: 'INACTIVE',
  isRecurrent: false,
};

/** The sort ids `POST /api/payment-plans/search` accepts (proto's `SORTABLE_COLUMNS.paymentPlans`). */
const API_SORT_IDS = ['createdAt', 'name', 'price', 'durationInMonths', 'status'];

const page = (content: unknown[]) =>
  json(200, { content, page: 0, size: 20, totalElements: content.length, totalPages: 1 });
const searches = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/payment-plans/search');

function renderAs(role: UserRole, lang: 'he' | 'en' = 'he') {
  signInAs(role);
  return renderInAdmin(<PackageList />, { resource: 'packages', withAuth: true, lang, notifications: true });
}

describe('packages list', () => {
  it('shows each package with its duration, price isolated in bdi and status, newest first', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans/search': () => page([gold, bronze]) });
    renderAs('ADMIN');

    const rows = await screen.findAllByTestId('packages-row');
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['p-1', 'p-2']);
    const first = within(rows[0]);
    expect(first.getByText('Gold')).toBeVisible();
    expect(first.getByText(enumLabel('planDuration', 12, 'he'))).toBeVisible();
    expect(first.getByText(enumLabel('planStatus', 'ACTIVE', 'he'))).toBeVisible();
    expect(rows[0].querySelector('bdi[data-amount="1234.5"]')?.textContent).toBe(formatAmount(1234.5, 'he'));
    expect(within(rows[1]).getByText(enumLabel('planStatus', 'INACTIVE', 'he'))).toBeVisible();
    expect(searches(calls)[0].body).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
  });

  it('says which packages subscriptions use, and keeps the delete of one in use disabled', async () => {
    mockFetch({
      'POST /api/payment-plans/search': () =>
        page([
          { ...gold, subscriptionCount: 3 },
          { ...bronze, subscriptionCount: 0 },
        ]),
    });
    renderAs('ADMIN', 'en');

    const rows = await screen.findAllByTestId('packages-row');
    expect(within(rows[0]).getByTestId('package-usage')).toHaveTextContent('By 3 subscriptions');
    expect(within(rows[1]).getByTestId('package-usage')).toHaveTextContent('Not in use');
    // The server would refuse it (409): the button says so before the click (ADR 0078).
    expect(within(rows[0]).getByTestId('package-delete')).toBeDisabled();
    expect(within(rows[1]).getByTestId('package-delete')).toBeEnabled();
  });

  it('filters by status and by price bounds, and refuses a bound that is not a price', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans/search': () => page([gold]) });
    const user = userEvent.setup();
    renderAs('ADMIN', 'en');
    await screen.findAllByTestId('packages-row');

    await pickOptions(user, 'Statuses', [enumLabel('planStatus', 'ACTIVE', 'en')]);
    await waitFor(() => expect(lastSearchBody(searches(calls)).statuses).toEqual(['ACTIVE']));
    await user.type(screen.getByTestId('packages-price-from'), '10');
    await user.type(screen.getByTestId('packages-price-to'), '99.5');
    await waitFor(() => expect(lastSearchBody(searches(calls)).price).toEqual({ from: 10, to: 99.5 }));

    const before = searches(calls).length;
    await user.clear(screen.getByTestId('packages-price-to'));
    await user.type(screen.getByTestId('packages-price-to'), '1.005');
    expect(await screen.findByText(formatErrorMessage('error.validation.invalid.input', 'en'))).toBeVisible();
    // Well past the filter form's debounce, the refused bound has not become a filter.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(
      searches(calls)
        .slice(before)
        .map((call) => (call.body as { price?: unknown }).price),
    ).not.toContainEqual({
      from: 10,
      to: 1.005,
    });
  });

  it('sorts by each sortable column under a sort id the API accepts', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans/search': () => page([gold, bronze]) });
    // Without the auth provider no other call interleaves with the searches the clicks send.
    renderInAdmin(<PackageList />, { resource: 'packages', lang: 'en' });
    await screen.findAllByTestId('packages-row');

    expect(await sortsSentByEachColumn(calls)).toEqual({
      Name: [{ id: 'name', desc: false }],
      Duration: [{ id: 'durationInMonths', desc: false }],
      Price: [{ id: 'price', desc: false }],
      Status: [{ id: 'status', desc: false }],
      Created: [{ id: 'createdAt', desc: false }],
    });
    expect(API_SORT_IDS).toEqual(expect.arrayContaining(sentSortIds(calls)));
  });

  it('gives an admin the create button and, on every row, edit, activate or deactivate, and delete', async () => {
    mockFetch({ 'POST /api/payment-plans/search': () => page([gold, bronze]) });
    renderAs('ADMIN', 'en');
    const rows = await screen.findAllByTestId('packages-row');

    expect(await screen.findByTestId('package-create')).toBeVisible();
    expect(within(rows[0]).getByTestId('package-edit')).toBeVisible();
    expect(within(rows[0]).getByTestId('package-status-toggle')).toHaveTextContent('Deactivate');
    expect(within(rows[1]).getByTestId('package-status-toggle')).toHaveTextContent('Activate');
    expect(within(rows[0]).getByTestId('package-delete')).toBeVisible();
  });

  it('says there is no package yet and still gives an admin the create button, in Hebrew', async () => {
    mockFetch({ 'POST /api/payment-plans/search': () => page([]) });
    renderAs('ADMIN');

    expect(await screen.findByTestId('packages-empty')).toHaveTextContent('אין עדיין חבילות.');
    const create = await screen.findByTestId('package-create');
    expect(create).toBeVisible();
    expect(create).toHaveAttribute('href', expect.stringContaining('/packages/create'));
  });

  it('shows a manager the empty list without a create button', async () => {
    mockFetch({ 'POST /api/payment-plans/search': () => page([]) });
    const permissions = vi.spyOn(authProvider, 'getPermissions');
    renderAs('MANAGER', 'en');

    expect(await screen.findByTestId('packages-empty')).toHaveTextContent('No packages yet.');
    await waitFor(() => expect(permissions).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryAllByTestId('package-create')).toEqual([]);
  });

  it('shows a manager the list with no control that changes a package', async () => {
    mockFetch({ 'POST /api/payment-plans/search': () => page([gold, bronze]) });
    const permissions = vi.spyOn(authProvider, 'getPermissions');
    renderAs('MANAGER', 'en');
    const rows = await screen.findAllByTestId('packages-row');

    expect(rows).toHaveLength(2);
    // Permissions arrive after the first render: wait until the manager's role has been read and rendered.
    await waitFor(() => expect(permissions).toHaveBeenCalled());
    expect(await permissions.mock.results[0].value).toBe('MANAGER');
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const testId of ['package-create', 'package-edit', 'package-status-toggle', 'package-delete']) {
      expect(screen.queryAllByTestId(testId)).toEqual([]);
    }
    expect(screen.queryByText('Actions')).not.toBeInTheDocument();
  });

  it('changes a package status with its command and reads the list again', async () => {
    const { calls } = mockFetch({
      'POST /api/payment-plans/search': [() => page([gold]), () => page([{ ...gold, status: 'INACTIVE' }])],
      'PUT /api/payment-plans/p-1/status': () => json(200, { ...gold, status: 'INACTIVE' }),
    });
    const user = userEvent.setup();
    renderAs('ADMIN', 'en');
    const [row] = await screen.findAllByTestId('packages-row');

    await user.click(within(row).getByTestId('package-status-toggle'));
    await waitFor(() =>
      expect(within(screen.getAllByTestId('packages-row')[0]).getByTestId('package-status-toggle')).toHaveTextContent(
        'Activate',
      ),
    );
    expect(calls.filter((call) => call.method === 'PUT').map((call) => [call.url, call.body])).toEqual([
      ['/api/payment-plans/p-1/status', { status: 'INACTIVE' }],
    ]);
    expect(await screen.findByText('The package status was changed')).toBeVisible();
  });
});

describe('deleting a package from the list', () => {
  it('asks first, naming the package and saying it cannot be undone; cancelling sends nothing', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans/search': () => page([gold]) });
    const user = userEvent.setup();
    renderAs('ADMIN', 'en');
    const [row] = await screen.findAllByTestId('packages-row');

    await user.click(within(row).getByTestId('package-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete the package \u2068Gold\u2069?')).toBeVisible();
    expect(within(dialog).getByText(/^This cannot be undone\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });

  it('deletes after the confirmation, in Hebrew too, and shows the refusal of a package in use', async () => {
    const { calls } = mockFetch({
      'POST /api/payment-plans/search': [() => page([gold, bronze]), () => page([bronze])],
      'DELETE /api/payment-plans/p-1': () => new Response(null, { status: 204 }),
      'DELETE /api/payment-plans/p-2': () =>
        json(409, { status: 409, error: 'error.payment.plan.cannot.be.deleted', message: 'in use' }),
    });
    const user = userEvent.setup();
    renderAs('ADMIN', 'he');
    const rows = await screen.findAllByTestId('packages-row');

    await user.click(within(rows[0]).getByTestId('package-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/^אי אפשר לבטל את הפעולה הזו\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'מחיקה לצמיתות' }));
    await waitFor(() => expect(screen.getAllByTestId('packages-row').map((row) => row.dataset.id)).toEqual(['p-2']));
    expect(await screen.findByText('החבילה נמחקה')).toBeVisible();

    await user.click(within(screen.getAllByTestId('packages-row')[0]).getByTestId('package-delete'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'מחיקה לצמיתות' }));
    expect(await screen.findByText(formatErrorMessage('error.payment.plan.cannot.be.deleted', 'he'))).toBeVisible();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      '/api/payment-plans/p-1',
      '/api/payment-plans/p-2',
    ]);
  });
});
