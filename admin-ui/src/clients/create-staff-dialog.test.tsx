import { enumLabel, formatErrorMessage } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { CreateStaffButton } from './create-staff-dialog';

const created = { ...CLIENT, userUuid: 'n-1', id: 'n-1', email: 'yael@example.com', role: 'MANAGER' };

function renderButton(onLocation?: (pathname: string) => void) {
  return renderInAdmin(<CreateStaffButton />, { resource: 'clients', lang: 'en', withAuth: true, onLocation });
}

beforeEach(() => signInAs('ADMIN'));

describe('new staff account', () => {
  it('is offered to admins only', async () => {
    mockFetch({});
    signInAs('MANAGER');
    const { unmount } = renderButton();
    // Permissions resolve asynchronously: wait for react-admin to settle on the manager's, then look.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('create-staff-open')).toBeNull();
    unmount();
    signInAs('ADMIN');
    renderButton();
    expect(await screen.findByTestId('create-staff-open')).toBeVisible();
  });

  it('checks the fields with the shared rules, offers the staff roles, then creates the account and opens it', async () => {
    const { calls } = mockFetch({ 'POST /api/users': () => json(201, created) });
    const locations: string[] = [];
    const user = userEvent.setup();
    renderButton((pathname) => locations.push(pathname));

    await user.click(await screen.findByTestId('create-staff-open'));
    const role = screen.getByTestId('create-staff-role') as HTMLSelectElement;
    expect([...role.options].map((option) => option.textContent)).toEqual(
      (['ADMIN', 'MANAGER'] as const).map((value) => enumLabel('userRole', value, 'en')),
    );
    await user.type(screen.getByTestId('create-staff-email'), 'not-an-address');
    await user.type(screen.getByTestId('create-staff-password'), 'short');
    await user.click(screen.getByTestId('create-staff-submit'));
    expect(screen.getByText(formatErrorMessage('error.validation.invalid.email', 'en'))).toBeVisible();
    expect(screen.getByText(formatErrorMessage('error.validation.password.rules', 'en', { length: 8 }))).toBeVisible();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('create-staff-email'));
    await user.type(screen.getByTestId('create-staff-email'), ' Yael@Example.com ');
    await user.type(screen.getByTestId('create-staff-first-name'), 'Yael');
    await user.type(screen.getByTestId('create-staff-last-name'), 'Mizrahi');
    await user.clear(screen.getByTestId('create-staff-password'));
    await user.type(screen.getByTestId('create-staff-password'), 'Str0ng!pass');
    await user.click(screen.getByTestId('create-staff-submit'));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/users',
      body: {
        email: 'yael@example.com',
        firstName: 'Yael',
        lastName: 'Mizrahi',
        role: 'MANAGER',
        password: 'Str0ng!pass',
        language: 'en',
      },
    });
    await waitFor(() => expect(locations.at(-1)).toBe('/admin/clients/n-1'));
    expect(screen.queryByTestId('create-staff-dialog')).toBeNull();
  });

  it('refuses addresses a mail library would read as someone else, and sends nothing', async () => {
    const { calls } = mockFetch({ 'POST /api/users': () => json(201, created) });
    const user = userEvent.setup();
    renderButton();
    await user.click(await screen.findByTestId('create-staff-open'));
    await user.type(screen.getByTestId('create-staff-first-name'), 'Yael');
    await user.type(screen.getByTestId('create-staff-last-name'), 'Mizrahi');
    await user.type(screen.getByTestId('create-staff-password'), 'Str0ng!pass');
    for (const address of ['zz2<victim@example.com', '"@x.y', '.a@b.c']) {
      await user.clear(screen.getByTestId('create-staff-email'));
      await user.type(screen.getByTestId('create-staff-email'), address);
      await user.click(screen.getByTestId('create-staff-submit'));
      expect(screen.getByText(formatErrorMessage('error.validation.invalid.email', 'en'))).toBeVisible();
    }
    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusal of a taken address and keeps the dialog open", async () => {
    mockFetch({
      'POST /api/users': () =>
        json(409, { status: 409, error: 'error.login.already.in.use', message: 'Login already in use' }),
    });
    const user = userEvent.setup();
    renderButton();

    await user.click(await screen.findByTestId('create-staff-open'));
    await user.type(screen.getByTestId('create-staff-email'), 'taken@example.com');
    await user.type(screen.getByTestId('create-staff-first-name'), 'Avi');
    await user.type(screen.getByTestId('create-staff-last-name'), 'Levi');
    await user.selectOptions(screen.getByTestId('create-staff-role'), 'ADMIN');
    await user.type(screen.getByTestId('create-staff-password'), 'Str0ng!pass');
    await user.click(screen.getByTestId('create-staff-submit'));

    // The HTTP client words the server's refusal in the page's stored language, Hebrew unless told.
    expect(await screen.findByTestId('create-staff-error')).toHaveTextContent(
      formatErrorMessage('error.login.already.in.use', 'he'),
    );
    expect(screen.getByTestId('create-staff-dialog')).toBeVisible();
  });
});
