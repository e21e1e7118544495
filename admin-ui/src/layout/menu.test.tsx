import { type UserRole } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import { ResourceDefinitionContextProvider, type ResourceDefinitions } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { authProvider } from '../providers/auth-provider';
import { RESOURCE_NAMES, resourcesForRole } from '../resources';
import { mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { KupaMenu } from './menu';

/** The sidebar as the console draws it for the role, with the resources the console registers for that role. */
async function renderMenuAs(role: UserRole) {
  signInAs(role);
  mockFetch({});
  const permissions = vi.spyOn(authProvider, 'getPermissions');
  const definitions: ResourceDefinitions = Object.fromEntries(
    resourcesForRole(role).map((name) => [name, { name, hasList: true, hasShow: true }]),
  );
  renderInAdmin(
    <ResourceDefinitionContextProvider definitions={definitions}>
      <KupaMenu />
    </ResourceDefinitionContextProvider>,
    { withAuth: true, lang: 'en' },
  );
  await waitFor(() => expect(permissions).toHaveBeenCalled());
  expect(await permissions.mock.results[0].value).toBe(role);
  await screen.findByTestId('menu-clients');
}

const entries = () =>
  ['menu-dashboard', ...RESOURCE_NAMES.map((name) => `menu-${name}`)].filter((testId) => screen.queryByTestId(testId));

describe('the sidebar', () => {
  it("gives an admin the dashboard first, then every staff resource's list", async () => {
    await renderMenuAs('ADMIN');
    expect(entries()).toEqual([
      'menu-dashboard',
      'menu-clients',
      'menu-subscriptions',
      'menu-payments',
      'menu-deposit-claims',
      'menu-vouchers',
      'menu-packages',
      'menu-promo-codes',
      'menu-broadcasts',
      'menu-activity-log',
      'menu-bulk-operations',
      'menu-staff',
    ]);
    expect(screen.getByTestId('menu-dashboard')).toHaveAttribute('href', '/admin/');
  });

  it('gives a manager clients, transfer claims, packages, promo codes and the activity log: no dashboard, no subscriptions list', async () => {
    await renderMenuAs('MANAGER');
    // Subscriptions are registered for a manager (their details open from a client's tab), yet have no entry.
    expect(resourcesForRole('MANAGER')).toContain('subscriptions');
    expect(entries()).toEqual([
      'menu-clients',
      'menu-deposit-claims',
      'menu-packages',
      'menu-promo-codes',
      'menu-activity-log',
    ]);
  });
});
