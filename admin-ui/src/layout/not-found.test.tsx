import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { NotFoundPage } from './not-found';

function renderCatchAll(path: string) {
  const locations: string[] = [];
  renderInAdmin(<NotFoundPage />, { path, withAuth: true, onLocation: (pathname) => locations.push(pathname) });
  return locations;
}

beforeEach(() => mockFetch({}));

describe('console catch-all route', () => {
  beforeEach(() => signInAs('MANAGER'));

  it("sends a manager who opens an admin's page to the first sidebar entry", async () => {
    const locations = renderCatchAll('/admin/payments/42/show');
    await waitFor(() => expect(locations.at(-1)).toBe('/admin/clients'));
  });

  it('still says "page not found" for an address the console does not have', async () => {
    const locations = renderCatchAll('/admin/no-such-page');
    expect(await screen.findByTestId('not-found')).toBeVisible();
    expect(locations.at(-1)).toBe('/admin/no-such-page');
  });
});
