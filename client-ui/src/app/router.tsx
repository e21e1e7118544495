import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  parseSearchWith,
  stringifySearchWith,
  type RouterHistory,
} from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { importWithReload } from '../lib/reload-once';
import { registerNavigate, safeReturnPath } from '../lib/navigation';
import { ErrorScreen } from '../features/errors/error-screen';
import { NotFoundScreen } from '../features/errors/not-found-screen';
import { RootLayout } from '../features/shell/root-layout';
import { parseSignUpSearch } from '../features/auth/sign-up/referral-search';
import { parsePaymentsSearch, toPaymentSearchRequest } from '../features/payments/list/payments-search';
import { parseDepositSearch } from '../features/payments/deposit/deposit-search';
import { parsePaymentIdSearch } from '../features/payments/detail/payment-id';
import { parseUnsubscribeSearch } from '../features/unsubscribe/unsubscribe-search';
import {
  endViewInsteadOfSignOut,
  redirectHome,
  redirectIfSignedIn,
  redirectStaffConsolePath,
  requireRole,
  requireSession,
} from './guards';

export interface RouterContext {
  queryClient: QueryClient;
}

/** Screens load on demand; a chunk that vanished after a deploy reloads the page once (see reload-once). */
function lazyPage<T extends Record<string, unknown>>(importer: () => Promise<T>, exportName: keyof T & string) {
  return lazyRouteComponent(importWithReload(importer), exportName);
}

export interface LoginSearch {
  notice?: 'staff';
  /** The address asked for before signing in, opened afterwards; only a path of this app is kept. */
  redirect?: string;
}

export function parseLoginSearch(search: Record<string, unknown>): LoginSearch {
  const redirect = safeReturnPath(search.redirect);
  // An unsafe value is replaced, not left out: the router would otherwise keep the key as it came.
  return { ...(search.notice === 'staff' ? { notice: 'staff' } : {}), redirect: redirect ?? undefined };
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundScreen,
  errorComponent: ErrorScreen,
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-up',
  validateSearch: parseSignUpSearch,
  component: lazyPage(() => import('../features/auth/sign-up/sign-up-page'), 'SignUpPage'),
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: parseLoginSearch,
  beforeLoad: redirectIfSignedIn,
  component: lazyPage(() => import('../features/auth/login/login-page'), 'LoginPage'),
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  component: lazyPage(() => import('../features/auth/reset-password/reset-password-page'), 'ResetPasswordPage'),
});

const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/set-password/$token',
  component: lazyPage(() => import('../features/auth/set-password/set-password-page'), 'SetPasswordPage'),
});

const confirmationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/confirmation-token/$token',
  component: lazyPage(() => import('../features/auth/confirm-account/confirm-account-page'), 'ConfirmAccountPage'),
});

// The link mailed to a new address (ADR 0100): signed in or not, the token names the account and the address.
const emailChangeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/email-change/$token',
  component: lazyPage(() => import('../features/profile/confirm-email-change-page'), 'ConfirmEmailChangePage'),
});

const blockedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/blocked',
  component: lazyPage(() => import('../features/auth/blocked/blocked-page'), 'BlockedPage'),
});

// An announcement mail's link (ADR 0091): signed in or not, the token names the client.
const unsubscribeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/unsubscribe',
  validateSearch: parseUnsubscribeSearch,
  component: lazyPage(() => import('../features/unsubscribe/unsubscribe-page'), 'UnsubscribePage'),
});

// The new-device mail's link (ADR 0099): signed in or not, the token names the session to end.
const endSessionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/end-session',
  validateSearch: parseUnsubscribeSearch,
  component: lazyPage(() => import('../features/sessions/end-session-page'), 'EndSessionPage'),
});

// A staff member's read-only look at one client's portal, opened from the console with the token in the fragment
// (docs/adr/0092-refund-to-balance-and-view-as.md). Outside the signed-in area: it opens the view, or says it ended.
const viewAsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/view-as',
  component: lazyPage(() => import('../features/view-as/view-as-page'), 'ViewAsPage'),
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: requireSession,
  // The signed-in shell (app bar, menu, balance, deposit watcher) loads with the first signed-in screen, so the
  // sign-in page does not wait for it (docs/adr/0045-sign-in-page-loads-light.md).
  component: lazyPage(() => import('../features/shell/app-layout'), 'AppLayout'),
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: redirectHome,
});

const subscriptionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscriptions',
  beforeLoad: requireRole('/subscriptions'),
  component: lazyPage(() => import('../features/subscriptions/subscriptions-page'), 'SubscriptionsPage'),
});

const subscriptionDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscriptions/$subscriptionId',
  beforeLoad: requireRole('/subscriptions/$subscriptionId'),
  component: lazyPage(
    () => import('../features/subscriptions/detail/subscription-detail-page'),
    'SubscriptionDetailPage',
  ),
});

const packagesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/packages',
  beforeLoad: requireRole('/packages'),
  component: lazyPage(() => import('../features/packages/packages-page'), 'PackagesPage'),
});

const paymentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments',
  validateSearch: parsePaymentsSearch,
  loaderDeps: ({ search }) => search,
  beforeLoad: requireRole('/payments'),
  // Starts the list request as soon as the route is matched, including a preload on a link's hover or focus. It is
  // not awaited: the screen shows its skeleton at once and reads the answer from the query cache. The query's module
  // (with the API client) comes with the payments screen's chunk rather than with the first screen.
  loader: ({ context, deps }) => {
    void import('../features/payments/payments-query').then(({ paymentsSearchQueryOptions }) =>
      context.queryClient.prefetchQuery(paymentsSearchQueryOptions(toPaymentSearchRequest(deps))),
    );
  },
  component: lazyPage(() => import('../features/payments/list/payments-page'), 'PaymentsPage'),
});

// The two static paths rank above the `$paymentId` pattern, so `/payments/transfer` is never read as an id.
const transferRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments/transfer',
  beforeLoad: requireRole('/payments/transfer'),
  component: lazyPage(() => import('../features/payments/transfer/transfer-page'), 'TransferPage'),
});

// The statement's screen and its code load only when it is opened (ADR 0096): the first screen does not carry them.
const statementRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments/statement',
  beforeLoad: requireRole('/payments/statement'),
  component: lazyPage(() => import('../features/payments/statement/statement-page'), 'StatementPage'),
});

const depositRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments/deposit',
  validateSearch: parseDepositSearch,
  beforeLoad: requireRole('/payments/deposit'),
  component: lazyPage(() => import('../features/payments/deposit/deposit-page'), 'DepositPage'),
});

const paymentDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payments/$paymentId',
  beforeLoad: requireRole('/payments/$paymentId'),
  component: lazyPage(() => import('../features/payments/detail/payment-detail-page'), 'PaymentDetailPage'),
});

const redeemRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/redeem/$code',
  beforeLoad: requireRole('/redeem/$code'),
  component: lazyPage(() => import('../features/payments/redeem/redeem-page'), 'RedeemPage'),
});

const myProfileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/my-profile',
  beforeLoad: requireRole('/my-profile'),
  component: lazyPage(() => import('../features/profile/my-profile-page'), 'MyProfilePage'),
});

const referralsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/referrals',
  beforeLoad: requireRole('/referrals'),
  component: lazyPage(() => import('../features/referrals/referrals-page'), 'ReferralsPage'),
});

const helpRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/help',
  beforeLoad: requireRole('/help'),
  component: lazyPage(() => import('../features/help/help-page'), 'HelpPage'),
});

const notificationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/notifications',
  beforeLoad: requireRole('/notifications'),
  component: lazyPage(() => import('../features/notifications/notifications-page'), 'NotificationsPage'),
});

// Receipts (ADR 0097): each screen its own chunk, so the first screen carries none of them.
const receiptsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/receipts',
  beforeLoad: requireRole('/receipts'),
  component: lazyPage(() => import('../features/receipts/receipts-page'), 'ReceiptsPage'),
});

const receiptRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/receipts/$number',
  beforeLoad: requireRole('/receipts/$number'),
  component: lazyPage(() => import('../features/receipts/receipt-page'), 'ReceiptPage'),
});

const paymentSuccessRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/paymentSuccess',
  validateSearch: parsePaymentIdSearch,
  beforeLoad: requireRole('/paymentSuccess'),
  component: lazyPage(() => import('../features/payment-result/payment-result-pages'), 'PaymentSuccessPage'),
});

const paymentFailedRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/paymentFailed',
  validateSearch: parsePaymentIdSearch,
  beforeLoad: requireRole('/paymentFailed'),
  component: lazyPage(() => import('../features/payment-result/payment-result-pages'), 'PaymentFailedPage'),
});

const logoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/logout',
  beforeLoad: () => {
    endViewInsteadOfSignOut();
    requireRole('/logout')();
  },
  component: lazyPage(() => import('../features/auth/logout/logout-page'), 'LogoutPage'),
});

// Any other address, for a signed-in user: the not-found screen inside the app's frame (sidebar, balance), so that
// the way back is where it always is; a staff console section leads to `/` instead.
const unknownRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  beforeLoad: redirectStaffConsolePath,
  component: lazyPage(() => import('../features/errors/not-found-screen'), 'NotFoundInShell'),
});

export const routeTree = rootRoute.addChildren([
  signUpRoute,
  loginRoute,
  resetPasswordRoute,
  setPasswordRoute,
  confirmationRoute,
  emailChangeRoute,
  blockedRoute,
  unsubscribeRoute,
  endSessionRoute,
  viewAsRoute,
  appRoute.addChildren([
    indexRoute,
    subscriptionsRoute,
    subscriptionDetailRoute,
    packagesRoute,
    paymentsRoute,
    transferRoute,
    statementRoute,
    depositRoute,
    paymentDetailRoute,
    redeemRoute,
    myProfileRoute,
    referralsRoute,
    helpRoute,
    notificationsRoute,
    receiptsRoute,
    receiptRoute,
    paymentSuccessRoute,
    paymentFailedRoute,
    logoutRoute,
    unknownRoute,
  ]),
]);

const DIGITS_ONLY = /^\d+$/;

/**
 * How search values are read and written: JSON where a value is JSON (lists, sort objects), except that text made of
 * digits is never taken for JSON. The router's default writes such text in quotes, so that it does not read back as a
 * number: a referral code kept as text became `?ref=%2212345678%22`, which makes a shared link look broken. Written
 * plain, it reads back as a number (or as text when it has leading zeros), and the screens that take a code or an id
 * accept both.
 */
function parseSearchValue(text: string): unknown {
  if (DIGITS_ONLY.test(text)) throw new Error('digits stay text');
  return JSON.parse(text);
}

export const parseSearch = parseSearchWith(parseSearchValue);
export const stringifySearch = stringifySearchWith(JSON.stringify, parseSearchValue);

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  const router = createRouter({
    routeTree,
    context,
    history,
    parseSearch,
    stringifySearch,
    defaultPreload: 'intent',
    // The query cache decides whether data is fresh (60 s); the router's own 30-second preload cache would otherwise
    // skip the loaders of a link hovered again, even after the query went stale.
    defaultPreloadStaleTime: 0,
    defaultNotFoundComponent: NotFoundScreen,
    defaultErrorComponent: ErrorScreen,
    scrollRestoration: true,
  });
  // The API client sends the user to the login or blocked screen from outside React, through the router.
  registerNavigate(
    (to) => {
      void router.navigate({ href: to });
    },
    () => router.state.location.href,
  );
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
