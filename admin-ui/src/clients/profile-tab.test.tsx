import { formatErrorMessage } from '@kupa/proto';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, RecordContextProvider, ResourceContextProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18nProvider } from '../i18n/i18n-provider';
import { dataProvider } from '../providers/data-provider';
import { session } from '../providers/session';
import { json, mockFetch } from '../test/fetch-mock';
import { ProfileTab } from './profile-tab';

const client = {
  id: 'u-1',
  userUuid: 'u-1',
  email: 'dana@example.com',
  fullName: 'Dana Levi',
  role: 'CLIENT',
  status: 'ACTIVE',
  profileId: '12345678',
  balance: 0,
  userCreatedAt: '2026-01-02T10:00:00Z',
  trialUsed: false,
  trialRejected: false,
};

function renderProfile() {
  return render(
    <AdminContext dataProvider={dataProvider} i18nProvider={createI18nProvider('he')}>
      <ResourceContextProvider value="clients">
        <RecordContextProvider value={client}>
          <ProfileTab />
        </RecordContextProvider>
      </ResourceContextProvider>
    </AdminContext>,
  );
}

beforeEach(() => {
  session.set({ accessToken: 't', userUuid: 's-1', email: 'admin@example.com', userRole: 'ADMIN' });
});

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

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

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/users/u-1/status', body: { status: 'BLOCKED' } });
  });

  it('checks a new password with the shared rule before sending it', async () => {
    const { calls } = mockFetch({ 'PUT /api/password/users/u-1': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    renderProfile();

    await user.type(screen.getByTestId('password-input'), 'weak');
    await user.click(screen.getByTestId('password-save'));
    expect(await screen.findByText(formatErrorMessage('error.validation.password.rules', 'he', { length: 8 }))).toBeVisible();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByTestId('password-input'));
    await user.type(screen.getByTestId('password-input'), 'Str0ng!pass');
    await user.click(screen.getByTestId('password-save'));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/password/users/u-1', body: { password: 'Str0ng!pass' } });
  });
});
