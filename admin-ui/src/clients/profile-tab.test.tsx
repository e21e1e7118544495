import { enumLabel, formatErrorMessage } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { ProfileTab } from './profile-tab';

const client = CLIENT;

function renderProfile() {
  return renderInAdmin(<ProfileTab />, { resource: 'clients', record: client });
}

beforeEach(() => signInAs('ADMIN'));

describe('client profile tab', () => {
  it('changes the status with PUT /api/users/{uuid}/status once save is pressed', async () => {
    const { calls } = mockFetch({ 'PUT /api/users/u-1/status': () => json(200, { ...client, status: 'BLOCKED' }) });
    const user = userEvent.setup();
    renderProfile();

    const save = screen.getByTestId('status-save');
    expect(save).toBeDisabled();
    await user.selectOptions(screen.getByTestId('status-select'), 'BLOCKED');
    expect(screen.getByTestId('status-select')).toHaveValue('BLOCKED');
    await user.click(save);

    // Blocking asks first, naming the account; nothing is sent until it is confirmed.
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('לחסום את החשבון?');
    expect(dialog).toHaveTextContent('\u2066dana@example.com\u2069');
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'שמירה' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/users/u-1/status', body: { status: 'BLOCKED' } });
  });

  it('changes the role with PUT /api/users/{uuid}/role once a different role is chosen, and says so', async () => {
    const { calls } = mockFetch({ 'PUT /api/users/u-1/role': () => json(200, { ...client, role: 'AMBASSADOR' }) });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: client, lang: 'en', notifications: true });

    const select = screen.getByTestId('role-select');
    const save = screen.getByTestId('role-save');
    expect(select).toHaveValue('CLIENT');
    expect([...(select as HTMLSelectElement).options].map((option) => option.textContent)).toEqual(
      (['ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR'] as const).map((role) => enumLabel('userRole', role, 'en')),
    );
    expect(save).toBeDisabled();
    await user.selectOptions(select, 'AMBASSADOR');
    expect(save).toBeEnabled();
    // Choosing the current role again leaves nothing to save.
    await user.selectOptions(select, 'CLIENT');
    expect(save).toBeDisabled();
    await user.selectOptions(select, 'AMBASSADOR');
    await user.click(save);

    // The confirmation names the new role in the page language.
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(`Make this account ${enumLabel('userRole', 'AMBASSADOR', 'en')}?`);
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/users/u-1/role', body: { role: 'AMBASSADOR' } });
    expect(await screen.findByText('The role was changed')).toBeVisible();
  });

  it('offers a manager only the roles the server lets a manager give, and names the new role in Hebrew', async () => {
    signInAs('MANAGER');
    mockFetch({});
    const user = userEvent.setup();
    renderProfile();

    const select = screen.getByTestId('role-select') as HTMLSelectElement;
    expect([...select.options].map((option) => option.value)).toEqual(['CLIENT', 'AMBASSADOR']);
    await user.selectOptions(select, 'AMBASSADOR');
    await user.click(screen.getByTestId('role-save'));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      `להגדיר את החשבון כ${enumLabel('userRole', 'AMBASSADOR', 'he')}?`,
    );
  });

  it("shows a manager why a staff account's status, role and password are not theirs to change", async () => {
    signInAs('MANAGER');
    mockFetch({});
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: { ...client, role: 'ADMIN' }, lang: 'en' });

    expect(screen.getByTestId('profile-refusal')).toHaveTextContent(
      'Only an admin can change the status, role or password of a staff account.',
    );
    expect(screen.queryByTestId('status-select')).toBeNull();
    expect(screen.queryByTestId('role-select')).toBeNull();
    expect(screen.queryByTestId('password-input')).toBeNull();
  });

  it('offers nobody the staff changes of their own account', () => {
    mockFetch({});
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: { ...client, id: 's-1', userUuid: 's-1' } });
    expect(screen.getByTestId('profile-refusal')).toHaveAttribute('data-reason', 'own.account');
    expect(screen.queryByTestId('status-save')).toBeNull();
  });

  it("shows the server's refusal of a role change in the page language", async () => {
    const { calls } = mockFetch({
      'PUT /api/users/u-1/role': () =>
        json(403, { status: 403, error: 'error.access.forbidden', message: 'Access is forbidden' }),
    });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: client, notifications: true });

    await user.selectOptions(screen.getByTestId('role-select'), 'MANAGER');
    await user.click(screen.getByTestId('role-save'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'שמירה' }));

    expect(await screen.findByText(formatErrorMessage('error.access.forbidden', 'he'))).toBeVisible();
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ role: 'MANAGER' });
  });

  it('checks a new password with the shared rule before sending it', async () => {
    const { calls } = mockFetch({ 'PUT /api/password/users/u-1': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    renderProfile();

    await user.type(screen.getByTestId('password-input'), 'weak');
    await user.click(screen.getByTestId('password-save'));
    expect(
      await screen.findByText(formatErrorMessage('error.validation.password.rules', 'he', { length: 8 })),
    ).toBeVisible();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('password-input'));
    await user.type(screen.getByTestId('password-input'), 'Str0ng!pass');
    // The show/hide control reveals what was typed.
    expect(screen.getByTestId('password-input')).toHaveAttribute('type', 'password');
    await user.click(screen.getByTestId('password-visibility'));
    expect(screen.getByTestId('password-input')).toHaveAttribute('type', 'text');
    await user.click(screen.getByTestId('password-save'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('להגדיר סיסמה חדשה?');
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'הגדרת סיסמה' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/password/users/u-1',
      body: { password: 'Str0ng!pass' },
    });
  });

  it('lets an admin reset a staff member’s two-factor sign-in after confirming', async () => {
    const manager = { ...client, role: 'MANAGER', twoFactorEnabled: true };
    const { calls } = mockFetch({ 'DELETE /api/users/u-1/two-factor': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, {
      resource: 'clients',
      record: manager,
      lang: 'en',
      notifications: true,
      withAuth: true,
    });

    await user.click(await screen.findByTestId('two-factor-reset-open'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Reset two-factor sign-in?');
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-factor sign-in' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: '/api/users/u-1/two-factor' });
    expect(await screen.findByText('Two-factor sign-in was reset')).toBeVisible();
  });

  it('shows a client’s two-factor state and lets an admin reset it (ADR 0098)', async () => {
    const withTwoFactor = { ...client, twoFactorEnabled: true };
    const { calls } = mockFetch({ 'DELETE /api/users/u-1/two-factor': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: withTwoFactor, lang: 'en', withAuth: true });
    expect(await screen.findByTestId('two-factor-state')).toHaveTextContent('Two-factor sign-in: On');
    await user.click(await screen.findByTestId('two-factor-reset-open'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('a client is told by mail');
    await user.click(within(dialog).getByRole('button', { name: 'Reset two-factor sign-in' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'DELETE', url: '/api/users/u-1/two-factor' });
  });

  it('says when a client has two-factor sign-in off, in Hebrew too', async () => {
    mockFetch({});
    renderInAdmin(<ProfileTab />, {
      resource: 'clients',
      record: { ...client, twoFactorEnabled: false },
      withAuth: true,
    });
    expect(await screen.findByTestId('two-factor-state')).toHaveTextContent('כניסה דו-שלבית: כבויה');
    expect(screen.queryByTestId('two-factor-reset-open')).not.toBeInTheDocument();
  });

  it('offers the reset to admins only, and only where two-factor sign-in is on', async () => {
    mockFetch({});
    signInAs('MANAGER');
    const { unmount } = renderInAdmin(<ProfileTab />, {
      resource: 'clients',
      record: { ...client, role: 'MANAGER', twoFactorEnabled: true },
      withAuth: true,
    });
    // The fix-balance button is the admin's too: once it is absent, permissions have been read.
    expect(await screen.findByTestId('client-account-history')).toBeVisible();
    expect(screen.queryByTestId('fix-balance-open')).not.toBeInTheDocument();
    expect(screen.queryByTestId('two-factor-reset-open')).not.toBeInTheDocument();
    unmount();
    signInAs('ADMIN');
    renderInAdmin(<ProfileTab />, { resource: 'clients', record: { ...client, role: 'MANAGER' }, withAuth: true });
    expect(await screen.findByTestId('fix-balance-open')).toBeVisible();
    expect(screen.queryByTestId('two-factor-reset-open')).not.toBeInTheDocument();
  });
});
