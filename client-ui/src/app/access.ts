import { CUSTOMER_ROLES, type UserRole } from '@kupa/proto';
import type { MessageKey } from '../lib/i18n/i18n';

/** Where staff sign in; the API server serves the staff console under this path. */
export const STAFF_CONSOLE_URL = '/admin';

/**
 * Where a client whose balance is short is sent to top it up, from the packages, a purchase and a renewal. Today that
 * is the deposit screen (a manual transfer to the operator); this one constant moves them all when it changes.
 */
export const TOP_UP_PATH = '/payments/deposit' satisfies AppPath;

export type AppPath =
  | '/subscriptions'
  | '/subscriptions/$subscriptionId'
  | '/packages'
  | '/payments'
  | '/payments/transfer'
  | '/payments/statement'
  | '/payments/deposit'
  | '/payments/$paymentId'
  | '/redeem/$code'
  | '/my-profile'
  | '/referrals'
  | '/help'
  | '/notifications'
  | '/receipts'
  | '/receipts/$number'
  | '/paymentSuccess'
  | '/paymentFailed'
  | '/logout';

export interface NavEntry {
  path: AppPath;
  label: MessageKey;
  testId: string;
}

const CUSTOMER_NAV: readonly NavEntry[] = [
  { path: '/subscriptions', label: 'nav.subscriptions', testId: 'nav-subscriptions' },
  { path: '/packages', label: 'nav.packages', testId: 'nav-packages' },
  { path: '/payments', label: 'nav.payments', testId: 'nav-payments' },
  { path: '/my-profile', label: 'nav.myProfile', testId: 'nav-my-profile' },
  { path: '/referrals', label: 'nav.referrals', testId: 'nav-referrals' },
  { path: '/help', label: 'nav.help', testId: 'nav-help' },
];

/** Sidebar entries per role (docs/product.md, Screens). Staff roles have none here: they use the staff console. */
export const SIDEBAR: Readonly<Record<UserRole, readonly NavEntry[]>> = {
  CLIENT: CUSTOMER_NAV,
  AMBASSADOR: CUSTOMER_NAV,
  ADMIN: [],
  MANAGER: [],
};

/** Which roles may open each authenticated route of this app (docs/product.md, Screens). */
export const ROUTE_ROLES: Readonly<Record<AppPath, readonly UserRole[]>> = {
  '/subscriptions': CUSTOMER_ROLES,
  '/subscriptions/$subscriptionId': CUSTOMER_ROLES,
  '/packages': CUSTOMER_ROLES,
  '/payments': CUSTOMER_ROLES,
  // Staff look at payments in the staff console; here a client transfers, deposits and opens their own payments.
  '/payments/transfer': CUSTOMER_ROLES,
  '/payments/statement': CUSTOMER_ROLES,
  '/payments/deposit': CUSTOMER_ROLES,
  '/payments/$paymentId': CUSTOMER_ROLES,
  '/redeem/$code': CUSTOMER_ROLES,
  '/my-profile': CUSTOMER_ROLES,
  '/referrals': CUSTOMER_ROLES,
  '/help': CUSTOMER_ROLES,
  '/notifications': CUSTOMER_ROLES,
  '/receipts': CUSTOMER_ROLES,
  '/receipts/$number': CUSTOMER_ROLES,
  '/paymentSuccess': CUSTOMER_ROLES,
  '/paymentFailed': CUSTOMER_ROLES,
  '/logout': ['ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR'],
};

export function canAccess(role: UserRole | null, path: AppPath): boolean {
  return role !== null && ROUTE_ROLES[path].includes(role);
}

/**
 * The staff console's own sections (`admin-ui`'s resources and pages). A client who opens one of them here, from an
 * old bookmark or a link meant for staff, is sent to `/` as for any route the role may not open, rather than told
 * the page does not exist (docs/product.md, Screens).
 */
export const STAFF_CONSOLE_SECTIONS: readonly string[] = [
  'clients',
  'activity-log',
  'dashboard',
  'ledger',
  'two-factor',
];

/** Whether a path of this origin names a staff console section (`/clients`, `/clients/12`, ...). */
export function isStaffConsolePath(pathname: string): boolean {
  const first = pathname.split('/').find((segment) => segment !== '') ?? '';
  return STAFF_CONSOLE_SECTIONS.includes(first);
}

/** Where `/` leads: the role's first sidebar entry. */
export function homePathFor(role: UserRole): AppPath {
  return SIDEBAR[role][0]?.path ?? '/logout';
}
