import { enumLabel, type UserRole } from '@kupa/proto';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authProvider } from '../providers/auth-provider';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PackageShow } from './package-show';

const gold = {
  id: 'p-1',
  name: 'זהב',
  durationInMonths: 3,
  price: 29.99,
  currency: 'USD',
  isRecurrent: true,
  description: 'כל הערוצים',
  features: ['HD', 'שני מסכים'],
  status: 'ACTIVE',
  createdAt: '2026-03-02T10:00:00Z',
  updatedAt: '2026-03-03T10:00:00Z',
};

function renderAs(role: UserRole) {
  signInAs(role);
  mockFetch({ 'GET /api/payment-plans/p-1': () => json(200, gold) });
  const permissions = vi.spyOn(authProvider, 'getPermissions');
  renderInAdmin(<PackageShow id="p-1" />, { resource: 'packages', withAuth: true, path: '/admin/packages/p-1/show' });
  return permissions;
}

describe("a package's details", () => {
  it('show its terms and features to a manager, with no control that changes it', async () => {
    const permissions = renderAs('MANAGER');

    const features = await screen.findByTestId('package-features');
    expect(within(features).getByText('שני מסכים')).toBeVisible();
    expect(screen.getByText(enumLabel('planDuration', 3, 'he'))).toBeVisible();
    expect(screen.getByText('כל הערוצים')).toBeVisible();
    expect(await permissions.mock.results[0].value).toBe('MANAGER');
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const testId of ['package-edit', 'package-status-toggle', 'package-delete'])
      expect(screen.queryByTestId(testId)).not.toBeInTheDocument();
  });

  it('give an admin the edit, status and delete controls', async () => {
    renderAs('ADMIN');

    await screen.findByTestId('package-features');
    expect(await screen.findByTestId('package-edit')).toBeVisible();
    expect(screen.getByTestId('package-status-toggle')).toHaveTextContent('השבתה');
    expect(screen.getByTestId('package-delete')).toBeVisible();
  });
});
