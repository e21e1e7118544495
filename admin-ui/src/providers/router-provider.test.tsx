import { act, render, screen } from '@testing-library/react';
import { reactRouterProvider, type RouterNavigateFunction, type RouterProvider, TestMemoryRouter } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createRouterProvider, fromLeftPage } from './router-provider';

const { Routes, Route } = reactRouterProvider;

/**
 * Two pages, as the console's router holds them; page A hands out the `useNavigate` of the provider under test, as a
 * list or a redirect on that page holds it, and `go` moves the router as a click in the sidebar does. `routerPathname`
 * follows the router, as `router.state.location.pathname` does in the console.
 */
async function twoPages(makeProvider: (routerPathname: () => string | undefined) => RouterProvider) {
  const state: { pathname?: string; fromA: RouterNavigateFunction | null; go: ((to: string) => void) | null } = {
    fromA: null,
    go: null,
  };
  const provider = makeProvider(() => state.pathname);
  function PageA() {
    state.fromA = provider.useNavigate();
    return <p>page a</p>;
  }
  render(
    <TestMemoryRouter
      initialEntries={['/admin/a']}
      locationCallback={(location) => (state.pathname = location.pathname)}
      navigateCallback={(navigate) => (state.go = navigate)}
    >
      <Routes>
        <Route path="/admin/a" element={<PageA />} />
        <Route path="/admin/b" element={<p>page b</p>} />
      </Routes>
    </TestMemoryRouter>,
  );
  await screen.findByText('page a');
  const fromA = state.fromA as RouterNavigateFunction;
  const go = (to: string) => act(() => state.go?.(to));
  return { state, fromA, go };
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('router provider', () => {
  it('drops a navigation asked by a page the router has already left', async () => {
    const { state, fromA, go } = await twoPages(createRouterProvider);
    await go('/admin/b');
    await screen.findByText('page b');

    // What a list on page A does when it writes its filters back to the URL: relative to its own route.
    act(() => fromA({ search: '?filter=%7B%7D' }, { replace: true }));
    await settle();
    expect(state.pathname).toBe('/admin/b');
    expect(screen.getByText('page b')).toBeInTheDocument();
  });

  it('is what pulled the user back: react-admin’s default navigate follows the left page’s request', async () => {
    const { state, fromA, go } = await twoPages(() => reactRouterProvider);
    await go('/admin/b');
    await screen.findByText('page b');

    act(() => fromA({ search: '?filter=%7B%7D' }, { replace: true }));
    await screen.findByText('page a');
    expect(state.pathname).toBe('/admin/a');
  });

  it('lets the page the user is on navigate, to its own address with new search params or to another page', async () => {
    const { fromA } = await twoPages(createRouterProvider);
    act(() => fromA({ search: '?page=2' }));
    await settle();
    expect(screen.getByText('page a')).toBeInTheDocument();

    act(() => fromA('/admin/b'));
    await screen.findByText('page b');
  });

  it('compares the caller’s page with where the router is, and never blocks when that is unknown', () => {
    expect(fromLeftPage('/admin/clients', '/admin/payments')).toBe(true);
    expect(fromLeftPage('/admin/clients', '/admin/clients')).toBe(false);
    expect(fromLeftPage('/admin/clients', undefined)).toBe(false);
  });
});
