import {
  type CardSetupResponse,
  type PromoCodeQuote,
  type WithPromoCode,
  type SavedCardView,
  type RenewalFundingRequest,
  type CardCheckoutRequest,
  type CardDepositRequest,
  type CardCheckoutResponse,
  type CryptoDepositAndBuyRequest,
  type CryptoDepositAndRenewRequest,
  type CryptoDepositOptions,
  type CryptoDepositRequest,
  type CryptoDepositResponse,
  API_ROUTES,
  type BuySubscriptionRequest,
  type ClientNotification,
  type DepositClaim,
  type DepositClaimRequest,
  type NotificationPage,
  type NotificationPageRequest,
  type ChangePasswordRequest,
  type ChangeSubscriptionLoginRequest,
  type ChangeSubscriptionPasswordRequest,
  type Dictionaries,
  type ConfirmationResponse,
  type EmailRequest,
  type Page,
  type Payment,
  type PaymentSearchRequest,
  type Plan,
  type PlanSearchRequest,
  type RenewSubscriptionRequest,
  type ResetPasswordRequest,
  type SignInRequest,
  type SignInResponse,
  type SignUpRequest,
  type Subscription,
  type SubscriptionSearchRequest,
  type TakeTrialRequest,
  type TransferRecipient,
  type TransferRecipientRequest,
  type TransferRequest,
  type TwoFactorActivation,
  type TwoFactorCodeRequest,
  type TwoFactorEnrolment,
  type UpdateUserRequest,
  type User,
  type VoucherPreview,
  type VoucherRedemption,
} from '@kupa/proto';
import { api } from './api-client';

/** The calls the client shell makes, typed by proto's payloads (docs/api.md, Routes). */
export const authApi = {
  signIn: (body: SignInRequest) => api.post<SignInResponse>(API_ROUTES.signIn, body, { skipRefresh: true }),
  signUp: (body: SignUpRequest) => api.post<User>(API_ROUTES.signUp, body, { skipRefresh: true }),
  logout: () => api.post<void>(API_ROUTES.signOut, undefined, { skipRefresh: true }),
  forgotPassword: (body: EmailRequest) => api.post<void>(API_ROUTES.forgotPassword, body, { skipRefresh: true }),
  resetPassword: (body: ResetPasswordRequest) => api.put<void>(API_ROUTES.resetPassword, body, { skipRefresh: true }),
  confirmAccount: (token: string) =>
    api.get<ConfirmationResponse>(API_ROUTES.confirmEmail, { query: { token }, skipRefresh: true }),
  resendConfirmation: (body: EmailRequest) =>
    api.post<void>(API_ROUTES.resendConfirmation, body, { skipRefresh: true }),
};

export const usersApi = {
  me: () => api.get<User>(API_ROUTES.me),
  updateName: (userUuid: string, body: UpdateUserRequest) => api.put<User>(API_ROUTES.user(userUuid), body),
  changePassword: (body: ChangePasswordRequest) => api.put<void>(API_ROUTES.changePassword, body),
};

/** The account's own two-factor sign-in (docs/adr/0098-client-two-factor-and-step-up.md). */
export const twoFactorApi = {
  startEnrolment: () => api.post<TwoFactorEnrolment>(API_ROUTES.twoFactorEnrolment),
  activate: (body: TwoFactorCodeRequest) => api.post<TwoFactorActivation>(API_ROUTES.twoFactorActivation, body),
  deactivate: (body: TwoFactorCodeRequest) => api.post<void>(API_ROUTES.twoFactorDeactivation, body),
};

/** The card kept at Stripe for automatic renewals (docs/adr/0085-saved-cards.md). */
export const savedCardApi = {
  mine: () => api.get<SavedCardView>(API_ROUTES.savedCard),
  /** Stripe's page that saves a card; nothing is charged there. */
  setup: () => api.post<CardSetupResponse>(API_ROUTES.savedCardSetup),
  remove: () => api.delete<void>(API_ROUTES.savedCard),
  /** How a recurrent subscription's automatic renewal is paid; answers the subscription as it now is. */
  chooseFunding: (subscriptionId: string, body: RenewalFundingRequest) =>
    api.put<Subscription>(API_ROUTES.subscriptionRenewalFunding(subscriptionId), body),
};

export const paymentsApi = {
  /** The signed-in client's own payments; the server never returns another user's rows to a client. */
  search: (body: PaymentSearchRequest, signal?: AbortSignal) =>
    api.post<Page<Payment>>(API_ROUTES.paymentsSearch, body, { signal }),
  get: (paymentId: number) => api.get<Payment>(API_ROUTES.payment(paymentId)),
  /**
   * Moves balance to another user and answers with the sender's TRANSFER_OUT payment. The key names one confirmed
   * submission, so the server books a retried request once.
   */
  transfer: (body: TransferRequest, idempotencyKey: string) =>
    api.post<Payment>(API_ROUTES.transfer, body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  /** The recipient as registered (name, masked e-mail), asked before the transfer is confirmed; rate limited. */
  lookUpRecipient: (body: TransferRecipientRequest) => api.post<TransferRecipient>(API_ROUTES.transferRecipient, body),
  /** Redeems a voucher code into the balance (ADR 0089); a wrong code is rate limited. */
  /** A day code for a package the client has none of to extend starts one with these credentials (ADR 0089). */
  redeemVoucher: (code: string, credentials?: { login: string; password: string }) =>
    api.post<VoucherRedemption>(API_ROUTES.voucherRedeem, { code, ...credentials }),
  /** What a code would give, before it is spent; wrong codes count as for redeeming. */
  previewVoucher: (code: string) => api.post<VoucherPreview>(API_ROUTES.voucherPreview, { code }),
  /** The deposit limits and crypto methods the form offers. */
  cryptoOptions: () => api.get<CryptoDepositOptions>(API_ROUTES.cryptoDepositOptions),
  /** Opens an invoice at the crypto cashier; the deposit is PENDING until the money arrives. */
  cryptoDeposit: (body: CryptoDepositRequest) => api.post<CryptoDepositResponse>(API_ROUTES.cryptoDeposit, body),
  /** A crypto deposit that buys the package once the money arrives; the balance pays what it can. */
  cryptoDepositAndBuy: (planId: string, body: CryptoDepositAndBuyRequest) =>
    api.post<CryptoDepositResponse>(API_ROUTES.cryptoDepositAndBuy(planId), body),
  /** A crypto deposit that renews the subscription once the money arrives. */
  cryptoDepositAndRenew: (body: CryptoDepositAndRenewRequest) =>
    api.post<CryptoDepositResponse>(API_ROUTES.cryptoDepositAndRenew, body),
  /** Opens the card provider's hosted checkout for a top-up of the balance (ADR 0082); the client is sent to `url`. */
  cardDeposit: (body: CardDepositRequest) => api.post<CardCheckoutResponse>(API_ROUTES.cardDeposit, body),
  /** Opens the card provider's hosted checkout for a package; the client is sent to `url`. */
  cardCheckout: (planId: string, body: CardCheckoutRequest) =>
    api.post<CardCheckoutResponse>(API_ROUTES.cardCheckout(planId), body),
};

/** The price with a promo code before the client confirms (docs/adr/0088-promo-codes.md); nothing is spent. */
export const promoCodesApi = {
  quote: (query: { code: string; planId: string } | { code: string; subscriptionId: string }) =>
    api.get<PromoCodeQuote>(API_ROUTES.promoCodeQuote, { query }),
};

export const plansApi = {
  /** The packages on sale: a customer finds ACTIVE ones only, whatever statuses it asks for. */
  search: (body: PlanSearchRequest, signal?: AbortSignal) =>
    api.post<Page<Plan>>(API_ROUTES.paymentPlansSearch, body, { signal }),
};

/**
 * The signed-in client's subscriptions. The calls that create or change one answer with the subscription as it now
 * is; the screens read nothing from those answers but the new subscription's id, and refetch the rest.
 */
export const subscriptionsApi = {
  search: (body: SubscriptionSearchRequest, signal?: AbortSignal) =>
    api.post<Page<Subscription>>(API_ROUTES.subscriptionsSearch, body, { signal }),
  get: (subscriptionId: string) => api.get<Subscription>(API_ROUTES.subscription(subscriptionId)),
  buyWithBalance: (planId: string, body: BuySubscriptionRequest & WithPromoCode) =>
    api.post<Subscription>(API_ROUTES.buyWithBalance(planId), body),
  renewWithBalance: (body: RenewSubscriptionRequest & WithPromoCode) =>
    api.post<Subscription>(API_ROUTES.renewWithBalance, body),
  takeTrial: (userUuid: string, body: TakeTrialRequest) => api.post<Subscription>(API_ROUTES.takeTrial(userUuid), body),
  /** Declines the trial for good; the route takes no body. */
  rejectTrial: () => api.put<void>(API_ROUTES.rejectTrial),
  cancel: (subscriptionId: string) => api.delete<unknown>(API_ROUTES.subscription(subscriptionId)),
  /** Withdraws a cancellation before the end date; the route takes no body. */
  resume: (subscriptionId: string) => api.post<Subscription>(API_ROUTES.subscriptionResume(subscriptionId)),
  changeLogin: (subscriptionId: string, body: ChangeSubscriptionLoginRequest) =>
    api.put<unknown>(API_ROUTES.subscriptionLogin(subscriptionId), body),
  changePassword: (subscriptionId: string, body: ChangeSubscriptionPasswordRequest) =>
    api.put<unknown>(API_ROUTES.subscriptionPassword(subscriptionId), body),
  /** Stops the renewals of every recurrent subscription of the caller on that package; the route takes no body. */
  deactivateRecurrent: (paymentPlanId: string) =>
    api.post<unknown>(API_ROUTES.deactivateRecurrent, undefined, { query: { paymentPlanId } }),
};

export const commonApi = {
  /** Enums, limits and the deployment's support contacts; public. */
  dictionaries: () => api.get<Dictionaries>(API_ROUTES.dictionaries),
};

/** The signed-in client's notifications (ADR 0083). */
/** Manual-transfer claims (ADR 0112): the client says they sent a bank transfer; staff settle or reject it. */
export const depositClaimsApi = {
  list: () => api.get<DepositClaim[]>(API_ROUTES.depositClaims),
  /** The key names one press of the button, so a retried request records one claim. */
  claim: (body: DepositClaimRequest, idempotencyKey: string) =>
    api.post<DepositClaim>(API_ROUTES.depositClaims, body, { headers: { 'Idempotency-Key': idempotencyKey } }),
};

export const notificationsApi = {
  search: (body: NotificationPageRequest) => api.post<NotificationPage>(API_ROUTES.myNotifications, body),
  markRead: (id: string) => api.post<ClientNotification>(API_ROUTES.notificationRead(id), undefined),
  markAllRead: () => api.post<{ marked: number }>(API_ROUTES.notificationsReadAll, undefined),
  /** An announcement mail's link: no sign-in, the token names the client. */
  unsubscribe: (token: string) =>
    api.post<void>(API_ROUTES.unsubscribeAnnouncements, undefined, { query: { token }, skipRefresh: true }),
};
