/** Where the API is mounted on the one origin that also serves both UIs. */
export const API_BASE_PATH = '/api';

/** One path segment: ids and account names are encoded, so a `/` or `?` inside them cannot change the route. */
function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/**
 * The API paths the UIs call, relative to `API_BASE_PATH`. Parameterised paths are functions, so the encoding of
 * their ids lives here once.
 */
export const API_ROUTES = Object.freeze({
  signIn: '/auth/signin',
  signUp: '/auth/signup',
  signOut: '/auth/logout',
  refreshSession: '/auth/token/refresh',
  confirmEmail: '/confirmation-token',
  resendConfirmation: '/users/resend-signup-email',
  forgotPassword: '/password/forgot',
  resetPassword: '/password/token',
  changePassword: '/password',
  /** Ask to move the account to another address; the link mailed there confirms it (ADR 0100). */
  changeEmail: '/email',
  confirmEmailChange: '/email/token',
  setUserPassword: (userUuid: string) => `/password/users/${segment(userUuid)}`,
  twoFactorEnrolment: '/auth/two-factor/enrolment',
  twoFactorActivation: '/auth/two-factor/activation',
  twoFactorDeactivation: '/auth/two-factor/deactivation',

  me: '/users/me',
  users: '/users',
  user: (userUuid: string) => `/users/${segment(userUuid)}`,
  userStatus: (userUuid: string) => `/users/${segment(userUuid)}/status`,
  userRole: (userUuid: string) => `/users/${segment(userUuid)}/role`,
  userTwoFactor: (userUuid: string) => `/users/${segment(userUuid)}/two-factor`,
  /** A read-only token to look at the client's portal (ADR 0092). */
  userViewAs: (userUuid: string) => `/users/${segment(userUuid)}/view-as`,
  /** The caller's own sessions (ADR 0099): list, end one, end every other. */
  mySessions: '/users/me/sessions',
  mySession: (sessionId: string) => `/users/me/sessions/${segment(sessionId)}`,
  /** The link of the new-device mail: ends that session without signing in. */
  sessionEndLink: '/sessions/end-link',
  userSessions: (userUuid: string) => `/users/${segment(userUuid)}/sessions`,
  userSessionsEnd: (userUuid: string) => `/users/${segment(userUuid)}/sessions-end`,
  usersSearch: '/users/search',
  /** Staff accounts only, for admins (ADR 0078). */
  staffSearch: '/users/staff/search',
  userNotes: (userUuid: string) => `/users/${segment(userUuid)}/notes`,
  userNote: (userUuid: string, noteId: string) => `/users/${segment(userUuid)}/notes/${segment(noteId)}`,

  payments: '/payments',
  payment: (paymentId: string | number) => `/payments/${segment(paymentId)}`,
  receipts: '/receipts',
  receipt: (number: string | number) => `/receipts/${segment(number)}`,
  receiptPdf: (number: string | number) => `/receipts/${segment(number)}/pdf`,
  userReceipts: (userUuid: string) => `/users/${segment(userUuid)}/receipts`,
  userReceiptPdf: (userUuid: string, number: string | number) =>
    `/users/${segment(userUuid)}/receipts/${segment(number)}/pdf`,
  paymentStatus: (paymentId: string | number) => `/payments/${segment(paymentId)}/status`,
  paymentRefundToBalance: (paymentId: string | number) => `/payments/${segment(paymentId)}/refund-to-balance`,
  largeDepositAcknowledgement: (paymentId: string | number) =>
    `/payments/${segment(paymentId)}/large-deposit-acknowledgement`,
  paymentsSearch: '/payments/search',
  /** Manual-transfer claims (ADR 0112): a client's own, or every client's for staff; staff reject one. */
  depositClaims: '/deposit-claims',
  depositClaimRejection: (claimId: string) => `/deposit-claims/${segment(claimId)}/rejection`,
  userPaymentsSearch: (userUuid: string) => `/payments/search/${segment(userUuid)}`,
  /** A client's statement over [from, to), as JSON or CSV, and their balance at an instant (ADR 0096). */
  userStatement: (userUuid: string) => `/users/${segment(userUuid)}/statement`,
  userStatementCsv: (userUuid: string) => `/users/${segment(userUuid)}/statement.csv`,
  userStatementPdf: (userUuid: string) => `/users/${segment(userUuid)}/statement.pdf`,
  userBalanceAt: (userUuid: string) => `/users/${segment(userUuid)}/balance`,
  paymentsExport: '/payments/export',
  transfer: '/payments/transfer',
  transferRecipient: '/payments/transfer/recipient',
  /** Prepaid vouchers (ADR 0089): a client redeems, admins manage batches. */
  voucherRedeem: '/vouchers/redeem',
  voucherPreview: '/vouchers/preview',
  voucherBatches: '/vouchers/batches',
  voucherBatchFunding: (batchId: string) => `/vouchers/batches/${segment(batchId)}/funding`,
  voucherBatchCodesCsv: (batchId: string) => `/vouchers/batches/${segment(batchId)}/codes.csv`,
  cryptoDeposit: '/payments/crypto/deposit',
  cryptoDepositOptions: '/payments/crypto/options',
  /** A crypto deposit that buys the package once the money arrives (ADR 0030). */
  cryptoDepositAndBuy: (planId: string) =>
    `/payments/crypto/deposit-and-buy-subscription/payment-plans/${segment(planId)}`,
  /** A crypto deposit that renews the subscription named in the body once the money arrives. */
  cryptoDepositAndRenew: '/payments/crypto/deposit-and-renew-subscription',
  /**
   * Opens a card checkout that buys the package once the provider reports the money (`CardCheckoutRequest` →
   * `CardCheckoutResponse`, ADR 0029): the hosted page returns the client to `/paymentSuccess?paymentId=…` or
   * `/paymentFailed?paymentId=…`.
   */
  cardCheckout: (planId: string) => `/stripe/create-checkout-session/payment-plans/${segment(planId)}`,
  /** A card top-up of the balance (`CardDepositRequest` → `CardCheckoutResponse`, ADR 0082). */
  cardDeposit: '/payments/card/deposit',
  /** Where the cashier posts its signed notifications (IPN). */
  cashierIpn: '/payments/crypto/ipn',
  /** The sandbox cashier's invoice page (HTML) and, with `/pay`, `/partial`, `/fail` or `/expire`, its buttons. */
  sandboxCashierInvoice: (invoiceId: string) => `/sandbox/cashier/invoices/${segment(invoiceId)}`,
  /** Where the card provider posts its signed webhooks. */
  cardWebhook: '/stripe/webhook',
  accountHistory: (account: string) => `/ledger/accounts/${segment(account)}/history`,

  paymentPlans: '/payment-plans',
  paymentPlan: (planId: string) => `/payment-plans/${segment(planId)}`,
  paymentPlanStatus: (planId: string) => `/payment-plans/${segment(planId)}/status`,
  paymentPlansSearch: '/payment-plans/search',

  subscription: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}`,
  subscriptionsSearch: '/subscriptions/search',
  subscriptionLogin: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}/login`,
  subscriptionPassword: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}/password`,
  subscriptionResume: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}/resume`,
  subscriptionExtension: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}/extension`,
  /** Takes `?paymentPlanId=`: every recurrent subscription of the caller on that package stops renewing. */
  deactivateRecurrent: '/subscriptions/deactivate-recurrent',
  buyWithBalance: (planId: string) => `/subscriptions/balance/payment-plans/${segment(planId)}`,
  renewWithBalance: '/subscriptions/renew/balance',
  takeTrial: (userUuid: string) => `/subscriptions/users/${segment(userUuid)}/trial`,
  rejectTrial: '/users/trial-reject',

  /** The admin's landing page: figures of this month against last. */
  dashboard: '/dashboard',

  auditLog: (id: string | number) => `/audit-logs/${segment(id)}`,
  auditLogsSearch: '/audit-logs/search',

  dictionaries: '/dictionaries',
  appVersion: '/common/app/version',

  /** The signed-in client's notifications (ADR 0083). */
  myNotifications: '/notifications/search',
  notificationRead: (id: string) => `/notifications/${segment(id)}/read`,
  notificationsReadAll: '/notifications/read-all',
  /** What was sent to one client (staff). */
  userNotifications: (userUuid: string) => `/users/${segment(userUuid)}/notifications/search`,
  // Saved cards and the renewal funding choice (docs/adr/0085-saved-cards.md).
  savedCard: '/users/me/saved-card',
  savedCardSetup: '/users/me/saved-card/setup',
  clientSavedCard: (userUuid: string) => `/users/${segment(userUuid)}/saved-card`,
  subscriptionRenewalFunding: (subscriptionId: string) => `/subscriptions/${segment(subscriptionId)}/renewal-funding`,
  // Promo codes (docs/adr/0088-promo-codes.md).
  promoCodes: '/promo-codes',
  promoCodeQuote: '/promo-codes/quote',
  promoCodeDisable: (code: string) => `/promo-codes/${segment(code)}/disable`,
  promoCodeHolds: (code: string) => `/promo-codes/${segment(code)}/holds`,
  // Broadcasts and the client's announcements switch (docs/adr/0091-broadcasts.md).
  broadcasts: '/broadcasts',
  broadcastPreview: '/broadcasts/preview',
  broadcast: (id: string) => `/broadcasts/${segment(id)}`,
  /** The former announcements switch, now the `announcements` kind of the preferences below (ADR 0102). */
  notificationPreferences: '/notifications/preferences',
  /** One's own notification preferences, replaced whole by PUT (ADR 0102); a client's, read only, for staff. */
  myNotificationPreferences: '/users/me/notification-preferences',
  userNotificationPreferences: (userUuid: string) => `/users/${segment(userUuid)}/notification-preferences`,
  /** One's own Telegram link: status, a one-time deep link, unlink (docs/adr/0103-telegram-channel.md). */
  myTelegram: '/users/me/telegram',
  myTelegramLinkToken: '/users/me/telegram/link-token',
  unsubscribeAnnouncements: '/announcements/unsubscribe',
});
