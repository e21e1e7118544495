import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';

/**
 * The route × role matrix (docs/product.md, Permissions): for every API operation, what each kind of caller gets. Later
 * work adds a row for every route it adds; `route-matrix.api-spec.ts` fails when an operation in the OpenAPI document
 * has no row.
 */
export const ACTORS = ['anonymous', 'client', 'otherClient', 'ambassador', 'manager', 'admin'] as const;
export type ActorName = (typeof ACTORS)[number];

/**
 * `pass`: the guards let the caller through (the answer is not 401/403 and not the ownership 404); the body may
 * still be refused by validation (400) — rows use harmless or invalid bodies so that the matrix changes nothing.
 * A number: exactly that status (400 where the row's body must be refused once the guards let the caller in).
 */
export type Expectation = 'pass' | 400 | 401 | 403 | 404;

export interface MatrixContext {
  /** The `client` actor's uuid (its own records); `otherClient` must not reach them. */
  clientUuid: string;
  /** A note on the client, created by staff. */
  clientNoteId: string;
  /** A manual deposit an admin booked to the client: the client's own payment. */
  clientPaymentId: number;
  /** An ACTIVE package an admin created: everyone signed in may read it. */
  planId: string;
  /** The receipt of the client's deposit (docs/product.md, Receipts). */
  clientReceiptNumber: number;
}

export interface MatrixRow {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The OpenAPI path, e.g. `/api/users/{uuid}`. */
  path: string;
  /** The concrete URL to call. */
  url: (context: MatrixContext) => string;
  body?: unknown;
  expect: Record<ActorName, Expectation>;
  /** When `pass` may legitimately be a 404 (a random id that does not exist). */
  passMayBe404?: boolean;
  /**
   * A valid request goes on to an outside service the specs that call every route leave unavailable: the card provider
   * at an address nothing answers on (`UNREACHABLE_STRIPE_ENV`), Telegram without a bot token. There a 503 with this
   * code is the right answer, and no other 5xx is.
   */
  unavailableError?: 'error.card.provider.unavailable' | 'error.telegram.not.configured';
}

const PUBLIC: Record<ActorName, Expectation> = {
  anonymous: 'pass',
  client: 'pass',
  otherClient: 'pass',
  ambassador: 'pass',
  manager: 'pass',
  admin: 'pass',
};
const SIGNED_IN: Record<ActorName, Expectation> = { ...PUBLIC, anonymous: 401 };
const STAFF: Record<ActorName, Expectation> = { ...SIGNED_IN, client: 403, otherClient: 403, ambassador: 403 };
const ADMIN_ONLY: Record<ActorName, Expectation> = { ...STAFF, manager: 403 };
const CUSTOMERS: Record<ActorName, Expectation> = { ...SIGNED_IN, manager: 403, admin: 403 };
/** Staff, or the client themself; another client learns nothing (404). */
const STAFF_OR_OWNER: Record<ActorName, Expectation> = { ...SIGNED_IN, otherClient: 404, ambassador: 404 };

/** Routes that take no session but their own token, which none of the actors has. */
const SANDBOX_TOKEN_ONLY: Record<ActorName, Expectation> = {
  anonymous: 401,
  client: 401,
  otherClient: 401,
  ambassador: 401,
  manager: 401,
  admin: 401,
};
const SANDBOX_ACCOUNT = { login: 'matrix.login', password: 'pw12', expiresAt: '2026-07-01T00:00:00Z' };

const RANDOM_UUID = '7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e';

export const ROUTE_MATRIX: MatrixRow[] = [
  // Public: sign-up, sessions, passwords, confirmation, common.
  { method: 'post', path: '/api/auth/signup', url: () => '/api/auth/signup', body: {}, expect: PUBLIC },
  { method: 'post', path: '/api/auth/signin', url: () => '/api/auth/signin', body: {}, expect: PUBLIC },
  {
    method: 'post',
    path: '/api/auth/token/refresh',
    url: () => '/api/auth/token/refresh',
    expect: { ...PUBLIC, anonymous: 401, client: 401, otherClient: 401, ambassador: 401, manager: 401, admin: 401 },
  },
  { method: 'post', path: '/api/auth/logout', url: () => '/api/auth/logout', expect: PUBLIC },
  { method: 'post', path: '/api/password/forgot', url: () => '/api/password/forgot', body: {}, expect: PUBLIC },
  { method: 'put', path: '/api/password/token', url: () => '/api/password/token', body: {}, expect: PUBLIC },
  { method: 'get', path: '/api/confirmation-token', url: () => '/api/confirmation-token?token=nope', expect: PUBLIC },
  { method: 'put', path: '/api/email/token', url: () => '/api/email/token', body: {}, expect: PUBLIC },
  {
    method: 'post',
    path: '/api/users/resend-signup-email',
    url: () => '/api/users/resend-signup-email',
    body: {},
    expect: PUBLIC,
  },
  { method: 'get', path: '/api/common/app/version', url: () => '/api/common/app/version', expect: PUBLIC },
  { method: 'get', path: '/api/dictionaries', url: () => '/api/dictionaries', expect: PUBLIC },

  // Two-factor sign-in, any account's own (ADR 0098). Enrolment also accepts a staff enrolment token; these rows use
  // access tokens.
  {
    method: 'post',
    path: '/api/auth/two-factor/enrolment',
    url: () => '/api/auth/two-factor/enrolment',
    expect: SIGNED_IN,
  },
  {
    method: 'post',
    path: '/api/auth/two-factor/activation',
    url: () => '/api/auth/two-factor/activation',
    body: {},
    expect: SIGNED_IN,
  },
  {
    method: 'post',
    path: '/api/auth/two-factor/deactivation',
    url: () => '/api/auth/two-factor/deactivation',
    body: {},
    expect: SIGNED_IN,
  },
  // The client has no two-factor sign-in, so the admin's reset appends nothing (a client's is reset like staff's).
  {
    method: 'delete',
    path: '/api/users/{uuid}/two-factor',
    url: (c) => `/api/users/${c.clientUuid}/two-factor`,
    expect: ADMIN_ONLY,
  },

  // A read-only view of the client's portal (ADR 0092): staff get a short token, and the opening is only logged.
  {
    method: 'post',
    path: '/api/users/{uuid}/view-as',
    url: (c) => `/api/users/${c.clientUuid}/view-as`,
    expect: STAFF,
  },

  // Identity: own account.
  // Sessions (ADR 0099). Ending "every other" keeps the caller's session, so the matrix's tokens live on; a random
  // session id is nobody's (404); a body without a reason ends nothing (400).
  { method: 'get', path: '/api/users/me/sessions', url: () => '/api/users/me/sessions', expect: SIGNED_IN },
  { method: 'delete', path: '/api/users/me/sessions', url: () => '/api/users/me/sessions', expect: SIGNED_IN },
  {
    method: 'delete',
    path: '/api/users/me/sessions/{id}',
    url: () => `/api/users/me/sessions/${RANDOM_UUID}`,
    expect: SIGNED_IN,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/sessions/end-link',
    url: () => '/api/sessions/end-link',
    body: { token: 'matrix-forged' },
    expect: PUBLIC,
  },
  {
    method: 'get',
    path: '/api/users/{uuid}/sessions',
    url: (c) => `/api/users/${c.clientUuid}/sessions`,
    expect: STAFF,
  },
  // Notification preferences (ADR 0102): everyone their own; staff read a client's. An empty change changes nothing.
  {
    method: 'get',
    path: '/api/users/me/notification-preferences',
    url: () => '/api/users/me/notification-preferences',
    expect: SIGNED_IN,
  },
  {
    method: 'put',
    path: '/api/users/me/notification-preferences',
    url: () => '/api/users/me/notification-preferences',
    body: {},
    expect: SIGNED_IN,
  },
  {
    method: 'get',
    path: '/api/users/{uuid}/notification-preferences',
    url: (c) => `/api/users/${c.clientUuid}/notification-preferences`,
    expect: STAFF,
  },
  {
    method: 'post',
    path: '/api/users/{uuid}/sessions-end',
    url: (c) => `/api/users/${c.clientUuid}/sessions-end`,
    body: {},
    expect: ADMIN_ONLY,
  },
  { method: 'put', path: '/api/password', url: () => '/api/password', body: {}, expect: SIGNED_IN },
  // A change of e-mail (ADR 0100): any signed-in account for itself; the link's confirmation takes only its token.
  { method: 'post', path: '/api/email', url: () => '/api/email', body: {}, expect: SIGNED_IN },
  { method: 'get', path: '/api/users/me', url: () => '/api/users/me', expect: SIGNED_IN },
  // The route takes no body: customers get past the guards and are refused for the body, so no trial is declined.
  {
    method: 'put',
    path: '/api/users/trial-reject',
    url: () => '/api/users/trial-reject',
    body: { unexpected: true },
    expect: { ...CUSTOMERS, client: 400, otherClient: 400, ambassador: 400 },
  },

  // Identity: users administration.
  { method: 'get', path: '/api/users/{uuid}', url: (c) => `/api/users/${c.clientUuid}`, expect: STAFF_OR_OWNER },
  // A valid body, so that the ownership check (not validation) decides; the name it sets is harmless.
  {
    method: 'put',
    path: '/api/users/{uuid}',
    url: (c) => `/api/users/${c.clientUuid}`,
    body: { firstName: 'Dana', lastName: 'Matrix' },
    expect: STAFF_OR_OWNER,
  },
  { method: 'post', path: '/api/users', url: () => '/api/users', body: {}, expect: ADMIN_ONLY },
  {
    method: 'put',
    path: '/api/users/{uuid}/status',
    url: (c) => `/api/users/${c.clientUuid}/status`,
    body: {},
    expect: STAFF,
  },
  {
    method: 'put',
    path: '/api/users/{uuid}/role',
    url: (c) => `/api/users/${c.clientUuid}/role`,
    body: {},
    expect: STAFF,
  },
  {
    method: 'put',
    path: '/api/password/users/{uuid}',
    url: (c) => `/api/password/users/${c.clientUuid}`,
    body: {},
    expect: STAFF,
  },
  { method: 'post', path: '/api/users/search', url: () => '/api/users/search', body: { size: 1 }, expect: STAFF },
  {
    method: 'post',
    path: '/api/users/staff/search',
    url: () => '/api/users/staff/search',
    body: { size: 1 },
    expect: ADMIN_ONLY,
  },
  { method: 'get', path: '/api/users/{uuid}/notes', url: (c) => `/api/users/${c.clientUuid}/notes`, expect: STAFF },
  // Receipts: the client's own (another's is 404), and staff on the client's detail.
  { method: 'get', path: '/api/receipts', url: () => '/api/receipts', expect: CUSTOMERS },
  {
    method: 'get',
    path: '/api/receipts/{number}',
    url: (c) => `/api/receipts/${c.clientReceiptNumber}`,
    expect: { ...CUSTOMERS, otherClient: 404, ambassador: 404 },
  },
  {
    method: 'get',
    path: '/api/receipts/{number}/pdf',
    url: (c) => `/api/receipts/${c.clientReceiptNumber}/pdf`,
    expect: { ...CUSTOMERS, otherClient: 404, ambassador: 404 },
  },
  {
    method: 'get',
    path: '/api/users/{uuid}/receipts',
    url: (c) => `/api/users/${c.clientUuid}/receipts`,
    expect: STAFF,
  },
  {
    method: 'get',
    path: '/api/users/{uuid}/receipts/{number}/pdf',
    url: (c) => `/api/users/${c.clientUuid}/receipts/${c.clientReceiptNumber}/pdf`,
    expect: STAFF,
  },
  {
    method: 'post',
    path: '/api/users/{uuid}/notes',
    url: (c) => `/api/users/${c.clientUuid}/notes`,
    body: {},
    expect: STAFF,
  },
  {
    method: 'delete',
    path: '/api/users/{uuid}/notes/{noteId}',
    url: (c) => `/api/users/${c.clientUuid}/notes/${RANDOM_UUID}`,
    expect: STAFF,
    passMayBe404: true,
  },

  // Ledger commands and payment reads. Bodies are invalid, so allowed callers get a 400 and no money moves.
  { method: 'post', path: '/api/payments', url: () => '/api/payments', body: {}, expect: ADMIN_ONLY },
  // Manual-transfer claims (ADR 0112): customers claim and read their own, staff read all and reject; settling is
  // POST /payments with a claimId (ADMIN). An unknown claim is 404 for staff.
  { method: 'post', path: '/api/deposit-claims', url: () => '/api/deposit-claims', body: {}, expect: CUSTOMERS },
  { method: 'get', path: '/api/deposit-claims', url: () => '/api/deposit-claims', expect: SIGNED_IN },
  {
    method: 'post',
    path: '/api/deposit-claims/{id}/rejection',
    url: () => `/api/deposit-claims/${RANDOM_UUID}/rejection`,
    body: { reason: 'matrix' },
    expect: STAFF,
    passMayBe404: true,
  },
  {
    method: 'put',
    path: '/api/payments/{id}/status',
    url: (c) => `/api/payments/${c.clientPaymentId}/status`,
    body: {},
    expect: ADMIN_ONLY,
  },
  // A subscription payment back to the balance (ADR 0092): admins only, like every other move of money by staff.
  {
    method: 'post',
    path: '/api/payments/{id}/refund-to-balance',
    url: (c) => `/api/payments/${c.clientPaymentId}/refund-to-balance`,
    body: {},
    expect: ADMIN_ONLY,
  },
  // The dashboard's large deposits (a client's small payment is no large deposit: the admin is answered 409).
  {
    method: 'post',
    path: '/api/payments/{id}/large-deposit-acknowledgement',
    url: (c) => `/api/payments/${c.clientPaymentId}/large-deposit-acknowledgement`,
    expect: ADMIN_ONLY,
  },
  { method: 'post', path: '/api/payments/transfer', url: () => '/api/payments/transfer', body: {}, expect: CUSTOMERS },
  // Prepaid vouchers (ADR 0089): customers redeem, admins alone generate, fund, list and export (codes are money).
  { method: 'post', path: '/api/vouchers/redeem', url: () => '/api/vouchers/redeem', body: {}, expect: CUSTOMERS },
  { method: 'post', path: '/api/vouchers/preview', url: () => '/api/vouchers/preview', body: {}, expect: CUSTOMERS },
  { method: 'post', path: '/api/vouchers/batches', url: () => '/api/vouchers/batches', body: {}, expect: ADMIN_ONLY },
  { method: 'get', path: '/api/vouchers/batches', url: () => '/api/vouchers/batches', expect: ADMIN_ONLY },
  {
    method: 'post',
    path: '/api/vouchers/batches/{id}/funding',
    url: () => `/api/vouchers/batches/${randomUUID()}/funding`,
    body: {},
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },
  {
    method: 'get',
    path: '/api/vouchers/batches/{id}/codes.csv',
    url: () => `/api/vouchers/batches/${randomUUID()}/codes.csv`,
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },
  // Bulk operations (ADR 0090): admins alone preview, start, follow and export batches.
  {
    method: 'post',
    path: '/api/bulk-operations/preview',
    url: () => '/api/bulk-operations/preview',
    body: {},
    expect: ADMIN_ONLY,
  },
  { method: 'post', path: '/api/bulk-operations', url: () => '/api/bulk-operations', body: {}, expect: ADMIN_ONLY },
  { method: 'get', path: '/api/bulk-operations', url: () => '/api/bulk-operations', expect: ADMIN_ONLY },
  {
    method: 'get',
    path: '/api/bulk-operations/{id}',
    url: () => `/api/bulk-operations/${randomUUID()}`,
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },
  {
    method: 'get',
    path: '/api/bulk-operations/{id}/results.csv',
    url: () => `/api/bulk-operations/${randomUUID()}/results.csv`,
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },
  // Crypto deposits: customers open them; the IPN and the sandbox are public and verified by signature, API key or
  // the invoice's existence (the bodies and ids here are refused, so nothing changes).
  {
    method: 'post',
    path: '/api/payments/crypto/deposit',
    url: () => '/api/payments/crypto/deposit',
    body: {},
    expect: CUSTOMERS,
  },
  { method: 'get', path: '/api/payments/crypto/options', url: () => '/api/payments/crypto/options', expect: SIGNED_IN },
  // Deposits that buy or renew once paid (ADR 0030): customers only; the empty bodies are refused, so no invoice opens.
  {
    method: 'post',
    path: '/api/payments/crypto/deposit-and-buy-subscription/payment-plans/{planId}',
    url: (c) => `/api/payments/crypto/deposit-and-buy-subscription/payment-plans/${c.planId}`,
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'post',
    path: '/api/payments/crypto/deposit-and-renew-subscription',
    url: () => '/api/payments/crypto/deposit-and-renew-subscription',
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'post',
    path: '/api/payments/crypto/ipn',
    url: () => '/api/payments/crypto/ipn',
    body: { payment_id: 1 },
    expect: { anonymous: 401, client: 401, otherClient: 401, ambassador: 401, manager: 401, admin: 401 },
  },
  // Card checkout (ADR 0029): customers open it (the empty body is refused, so Stripe is never called); the webhook
  // is public and verified by its Stripe signature, which this unsigned body lacks (400 to everyone alike).
  {
    method: 'post',
    path: '/api/stripe/create-checkout-session/payment-plans/{planId}',
    url: (c) => `/api/stripe/create-checkout-session/payment-plans/${c.planId}`,
    body: {},
    expect: CUSTOMERS,
  },
  // Card top-ups (ADR 0082): customers open them; the empty body is refused, so Stripe is never called.
  {
    method: 'post',
    path: '/api/payments/card/deposit',
    url: () => '/api/payments/card/deposit',
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'post',
    path: '/api/stripe/webhook',
    url: () => '/api/stripe/webhook',
    body: { id: 'evt_matrix', type: 'checkout.session.completed' },
    expect: { anonymous: 400, client: 400, otherClient: 400, ambassador: 400, manager: 400, admin: 400 },
  },
  {
    method: 'get',
    path: '/api/sandbox/cashier/invoices/{invoiceId}',
    url: () => '/api/sandbox/cashier/invoices/1000000001',
    expect: PUBLIC,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/sandbox/cashier/invoices/{invoiceId}/{action}',
    url: () => '/api/sandbox/cashier/invoices/1000000001/pay',
    body: {},
    expect: PUBLIC,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/payments/transfer/recipient',
    url: () => '/api/payments/transfer/recipient',
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'get',
    path: '/api/payments/{id}',
    url: (c) => `/api/payments/${c.clientPaymentId}`,
    expect: { ...SIGNED_IN, otherClient: 404, ambassador: 404, manager: 403 },
  },

  // Ledger read side: payments search and export, account history, statements.
  {
    method: 'post',
    path: '/api/payments/search',
    url: () => '/api/payments/search',
    body: { size: 1 },
    expect: { ...SIGNED_IN, manager: 403 },
  },
  {
    method: 'post',
    path: '/api/payments/search/{userUuid}',
    url: (c) => `/api/payments/search/${c.clientUuid}`,
    body: { size: 1 },
    expect: STAFF_OR_OWNER,
  },
  {
    method: 'post',
    path: '/api/payments/export',
    url: () => '/api/payments/export',
    body: { statuses: ['TIMEOUT'] },
    expect: ADMIN_ONLY,
  },
  {
    method: 'get',
    path: '/api/ledger/accounts/{account}/history',
    url: () => '/api/ledger/accounts/world:manual/history?size=1',
    expect: STAFF,
  },
  // Statements (ADR 0096): staff on a client's detail, or the client themself.
  {
    method: 'get',
    path: '/api/users/{userUuid}/statement',
    url: (c) => `/api/users/${c.clientUuid}/statement?from=2026-01-01&to=2026-02-01`,
    expect: STAFF_OR_OWNER,
  },
  {
    method: 'get',
    path: '/api/users/{userUuid}/statement.csv',
    url: (c) => `/api/users/${c.clientUuid}/statement.csv?from=2026-01-01&to=2026-02-01`,
    expect: STAFF_OR_OWNER,
  },
  {
    method: 'get',
    path: '/api/users/{userUuid}/statement.pdf',
    url: (c) => `/api/users/${c.clientUuid}/statement.pdf?from=2026-01-01&to=2026-02-01`,
    expect: STAFF_OR_OWNER,
  },
  {
    method: 'get',
    path: '/api/users/{userUuid}/balance',
    url: (c) => `/api/users/${c.clientUuid}/balance?at=2026-01-01`,
    expect: STAFF_OR_OWNER,
  },

  // Catalog: packages. Bodies are invalid and the deleted id does not exist, so the package stays as it is.
  {
    method: 'post',
    path: '/api/payment-plans/search',
    url: () => '/api/payment-plans/search',
    body: { size: 1 },
    expect: SIGNED_IN,
  },
  { method: 'get', path: '/api/payment-plans/{id}', url: (c) => `/api/payment-plans/${c.planId}`, expect: SIGNED_IN },
  { method: 'post', path: '/api/payment-plans', url: () => '/api/payment-plans', body: {}, expect: ADMIN_ONLY },
  {
    method: 'put',
    path: '/api/payment-plans/{id}',
    url: (c) => `/api/payment-plans/${c.planId}`,
    body: {},
    expect: ADMIN_ONLY,
  },
  {
    method: 'put',
    path: '/api/payment-plans/{id}/status',
    url: (c) => `/api/payment-plans/${c.planId}/status`,
    body: {},
    expect: ADMIN_ONLY,
  },
  {
    method: 'delete',
    path: '/api/payment-plans/{id}',
    url: () => `/api/payment-plans/${RANDOM_UUID}`,
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },

  // Subscriptions. Bodies are invalid and the ids random, so allowed callers get a 400 or 404 and nothing changes.
  {
    method: 'post',
    path: '/api/subscriptions/search',
    url: () => '/api/subscriptions/search',
    body: { size: 1 },
    expect: SIGNED_IN,
  },
  {
    method: 'get',
    path: '/api/subscriptions/{id}',
    url: () => `/api/subscriptions/${RANDOM_UUID}`,
    expect: SIGNED_IN,
    passMayBe404: true,
  },
  {
    method: 'delete',
    path: '/api/subscriptions/{id}',
    url: () => `/api/subscriptions/${RANDOM_UUID}`,
    expect: SIGNED_IN,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/subscriptions/{id}/resume',
    url: () => `/api/subscriptions/${RANDOM_UUID}/resume`,
    expect: SIGNED_IN,
    passMayBe404: true,
  },
  {
    // Days given away (ADR 0089): admins only; the empty body is refused once the guard lets the admin in.
    method: 'post',
    path: '/api/subscriptions/{id}/extension',
    url: () => `/api/subscriptions/${RANDOM_UUID}/extension`,
    body: {},
    expect: { ...ADMIN_ONLY, admin: 400 },
  },
  {
    method: 'put',
    path: '/api/subscriptions/{id}/login',
    url: () => `/api/subscriptions/${RANDOM_UUID}/login`,
    body: {},
    expect: SIGNED_IN,
  },
  {
    method: 'put',
    path: '/api/subscriptions/{id}/password',
    url: () => `/api/subscriptions/${RANDOM_UUID}/password`,
    body: {},
    expect: SIGNED_IN,
  },
  {
    method: 'post',
    path: '/api/subscriptions/balance/payment-plans/{planId}',
    url: (c) => `/api/subscriptions/balance/payment-plans/${c.planId}`,
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'post',
    path: '/api/subscriptions/renew/balance',
    url: () => '/api/subscriptions/renew/balance',
    body: {},
    expect: CUSTOMERS,
  },
  {
    method: 'post',
    path: '/api/subscriptions/users/{userUuid}/trial',
    url: (c) => `/api/subscriptions/users/${c.clientUuid}/trial`,
    body: {},
    expect: CUSTOMERS,
  },
  // Without its package id the call is refused, so no renewal stops.
  {
    method: 'post',
    path: '/api/subscriptions/deactivate-recurrent',
    url: () => '/api/subscriptions/deactivate-recurrent',
    expect: { ...CUSTOMERS, client: 400, otherClient: 400, ambassador: 400 },
  },
  // Reporting: the admin's dashboard.
  { method: 'get', path: '/api/dashboard', url: () => '/api/dashboard', expect: ADMIN_ONLY },

  // Audit.
  {
    method: 'post',
    path: '/api/audit-logs/search',
    url: () => '/api/audit-logs/search',
    body: { size: 1 },
    expect: STAFF,
  },
  {
    method: 'get',
    path: '/api/audit-logs/{id}',
    url: () => `/api/audit-logs/${RANDOM_UUID}`,
    expect: STAFF,
    passMayBe404: true,
  },
  // The built-in streaming-service simulator (docs/provisioning-api.md): public to the app's sign-in, it wants the
  // provisioning token instead, which no actor holds. Bodies are valid, so every caller meets the token check (401).
  ...(
    [
      ['post', '/api/sandbox/streaming/v1/accounts', SANDBOX_ACCOUNT],
      ['get', '/api/sandbox/streaming/v1/accounts/{login}', undefined],
      ['put', '/api/sandbox/streaming/v1/accounts/{login}/expiry', { expiresAt: '2026-07-01T00:00:00Z' }],
      ['put', '/api/sandbox/streaming/v1/accounts/{login}/login', { login: 'matrix.other' }],
      ['put', '/api/sandbox/streaming/v1/accounts/{login}/password', { password: 'pw12' }],
      ['post', '/api/sandbox/streaming/v1/accounts/{login}/disable', undefined],
      ['put', '/api/sandbox/streaming/faults', { operation: 'create', mode: 'transient', times: 1 }],
      ['delete', '/api/sandbox/streaming/faults', undefined],
    ] as const
  ).map(([method, path, body]): MatrixRow => ({
    method,
    path,
    url: () => path.replace('{login}', 'matrix.login'),
    body,
    expect: SANDBOX_TOKEN_ONLY,
  })),
  // The client's notifications (ADR 0083): their own only; staff read one client's through the user.
  {
    method: 'post',
    path: '/api/notifications/search',
    url: () => '/api/notifications/search',
    body: { size: 1 },
    expect: CUSTOMERS,
  },
  { method: 'post', path: '/api/notifications/read-all', url: () => '/api/notifications/read-all', expect: CUSTOMERS },
  {
    method: 'post',
    path: '/api/notifications/{id}/read',
    url: () => `/api/notifications/${RANDOM_UUID}/read`,
    expect: CUSTOMERS,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/users/{uuid}/notifications/search',
    url: (c) => `/api/users/${c.clientUuid}/notifications/search`,
    body: { size: 1 },
    expect: STAFF,
  },
  // Telegram linking (docs/adr/0103-telegram-channel.md): every signed-in person, staff too; the specs run no bot,
  // so a link token is 503 error.telegram.not.configured and unlinking finds nothing linked.
  { method: 'get', path: '/api/users/me/telegram', url: () => '/api/users/me/telegram', expect: SIGNED_IN },
  {
    method: 'post',
    path: '/api/users/me/telegram/link-token',
    url: () => '/api/users/me/telegram/link-token',
    expect: SIGNED_IN,
    unavailableError: 'error.telegram.not.configured',
  },
  {
    method: 'delete',
    path: '/api/users/me/telegram',
    url: () => '/api/users/me/telegram',
    expect: SIGNED_IN,
    passMayBe404: true,
  },
  // Saved cards and the renewal funding choice (docs/adr/0085-saved-cards.md).
  { method: 'get', path: '/api/users/me/saved-card', url: () => '/api/users/me/saved-card', expect: CUSTOMERS },
  {
    method: 'post',
    path: '/api/users/me/saved-card/setup',
    url: () => '/api/users/me/saved-card/setup',
    // The route takes no body: customers are refused for the body, so no setup is opened at Stripe.
    body: { unexpected: true },
    expect: CUSTOMERS,
    unavailableError: 'error.card.provider.unavailable',
  },
  { method: 'delete', path: '/api/users/me/saved-card', url: () => '/api/users/me/saved-card', expect: CUSTOMERS },
  {
    method: 'get',
    path: '/api/users/{uuid}/saved-card',
    url: (c) => `/api/users/${c.clientUuid}/saved-card`,
    expect: STAFF,
  },
  {
    method: 'put',
    path: '/api/subscriptions/{id}/renewal-funding',
    url: () => `/api/subscriptions/${RANDOM_UUID}/renewal-funding`,
    body: {},
    expect: CUSTOMERS,
  },
  // Promo codes (docs/adr/0088-promo-codes.md): admins manage them, managers read the list, customers ask for a quote.
  { method: 'get', path: '/api/promo-codes', url: () => '/api/promo-codes', expect: STAFF },
  { method: 'post', path: '/api/promo-codes', url: () => '/api/promo-codes', body: {}, expect: ADMIN_ONLY },
  {
    method: 'post',
    path: '/api/promo-codes/{code}/disable',
    url: () => '/api/promo-codes/NO-SUCH-CODE/disable',
    // No code of that name: the admin passes the guard and meets the 404, so nothing is disabled.
    passMayBe404: true,
    expect: ADMIN_ONLY,
  },
  { method: 'get', path: '/api/promo-codes/quote', url: () => '/api/promo-codes/quote', expect: CUSTOMERS },
  {
    method: 'get',
    path: '/api/promo-codes/{code}/holds',
    url: () => '/api/promo-codes/NO-SUCH-CODE/holds',
    // No code of that name: staff pass the guard and meet the 404.
    passMayBe404: true,
    expect: STAFF,
  },
  // Broadcasts (docs/adr/0091-broadcasts.md): admins only, managers neither send nor read them; a client switches
  // announcements off in the profile or by the mail's signed link, which needs no sign-in.
  {
    method: 'post',
    path: '/api/broadcasts/preview',
    url: () => '/api/broadcasts/preview',
    body: { keyWord: 'matrix-nobody' },
    expect: ADMIN_ONLY,
  },
  // An empty body is refused once the admin is let in, so nothing is sent.
  { method: 'post', path: '/api/broadcasts', url: () => '/api/broadcasts', body: {}, expect: ADMIN_ONLY },
  { method: 'get', path: '/api/broadcasts', url: () => '/api/broadcasts', expect: ADMIN_ONLY },
  {
    method: 'get',
    path: '/api/broadcasts/{id}',
    url: () => `/api/broadcasts/${RANDOM_UUID}`,
    expect: ADMIN_ONLY,
    passMayBe404: true,
  },
  {
    method: 'post',
    path: '/api/announcements/unsubscribe',
    // A token nobody signed: refused with 400 whoever calls, and nobody is unsubscribed.
    url: () => '/api/announcements/unsubscribe?token=matrix-forged',
    expect: PUBLIC,
  },
  {
    method: 'get',
    path: '/api/notifications/preferences',
    url: () => '/api/notifications/preferences',
    expect: CUSTOMERS,
  },
  {
    method: 'put',
    path: '/api/notifications/preferences',
    url: () => '/api/notifications/preferences',
    body: {},
    expect: CUSTOMERS,
  },
];

export interface MatrixActors {
  tokens: Record<Exclude<ActorName, 'anonymous'>, string>;
  context: MatrixContext;
}

/** The ACTIVE package the matrix and the input specs read and refuse to change: created through the API. */
export async function createMatrixPlan(testApp: TestApp, adminToken: string): Promise<string> {
  const response = await testApp.http
    .post('/api/payment-plans')
    .set('Authorization', `Bearer ${adminToken}`)
    .send({
      name: `Matrix ${Date.now()}`,
      durationInMonths: 1,
      price: 9.99,
      currency: 'USD',
      isRecurrent: true,
      description: 'A package the route specs read',
      features: ['HD'],
      status: 'ACTIVE',
    });
  if (response.status !== 201)
    throw new Error(`Package creation answered ${response.status}: ${JSON.stringify(response.body)}`);
  return (response.body as { id: string }).id;
}

export async function callAs(testApp: TestApp, row: MatrixRow, token: string | null, context: MatrixContext) {
  let call = testApp.http[row.method](row.url(context));
  if (token) call = call.set('Authorization', `Bearer ${token}`);
  return row.body === undefined ? call : call.send(row.body as object);
}
