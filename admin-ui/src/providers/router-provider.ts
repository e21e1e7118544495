import { useCallback, useRef } from 'react';
import { reactRouterProvider, type RouterNavigateFunction, type RouterProvider } from 'react-admin';

/**
 * Whether a navigation asked by a screen rendered at `pagePathname` comes from a page the router has already left
 * (`routerPathname`, where the router is now). An unknown router position never blocks.
 */
export function fromLeftPage(pagePathname: string, routerPathname: string | undefined): boolean {
  return routerPathname !== undefined && routerPathname !== pagePathname;
}

/**
 * react-admin's default (react-router) provider, with a guarded `useNavigate` (the one react-admin's redirects and
 * its lists, which keep their filters in the URL, call): a call made by a screen whose page the router has already
 * left is dropped. `routerPathname` says where the router is now: the console's data router's
 * `router.state.location.pathname`.
 *
 * Why: the router's state moves to the new address at once, while React keeps the old page mounted until the new one
 * has rendered (the navigation runs in a transition, and a lazy screen suspends). A list that writes its filters back
 * to the URL (`navigate({ search })`, relative to its own route), a debounced filter, or a redirect after a failed
 * read can fire in that window; its target is the old page, and the user was pulled back to the page they had left.
 * Comparing the page the caller was rendered at with where the router is tells that call apart from any navigation
 * the current page asks for.
 */
export function createRouterProvider(routerPathname: () => string | undefined): RouterProvider {
  function useGuardedNavigate(): RouterNavigateFunction {
    const navigate = reactRouterProvider.useNavigate();
    const { pathname } = reactRouterProvider.useLocation();
    // The page this caller was last rendered at, in a ref so the function stays stable, as react-admin's is.
    const page = useRef(pathname);
    page.current = pathname;
    return useCallback<RouterNavigateFunction>(
      (to, options) => {
        if (fromLeftPage(page.current, routerPathname())) return;
        navigate(to, options);
      },
      [navigate],
    );
  }
  return { ...reactRouterProvider, useNavigate: useGuardedNavigate };
}
