import type { AmbassadorBonusTier, ReferralDiscountTier } from './rewards';
import type {
  AuditOperationType,
  AuditTargetType,
  BalanceFixAction,
  CryptoMethod,
  Currency,
  Language,
  PaymentAggregator,
  PaymentMethod,
  PaymentStatus,
  PaymentType,
  PlanDurationMonths,
  PlanStatus,
  RenewalFunding,
  SubscriptionStatus,
  StaffRole,
  SubscriptionExtensionSource,
  SubscriptionType,
  UserRole,
  UserStatus,
} from './enums';
import type { PaymentCard } from './card';
import type { PaymentCashier } from './cashier';
import type { ErrorCode } from './errors';

/** Request and response bodies of the HTTP API (docs/api.md). Amounts are dollars with at most two decimals. */

/**
 * An instant as `Date.prototype.toISOString` writes it (`2026-03-01T09:30:00.000Z`).
 * @format date-time
 */
export type IsoDateTime = string;

export interface SortRequest {
  id: string;
  desc: boolean;
}

export interface DateRange {
  from?: IsoDateTime | null;
  to?: IsoDateTime | null;
}

export interface NumberRange {
  from?: number | null;
  to?: number | null;
}

export interface SearchRequest {
  page?: number;
  size?: number;
  sorts?: SortRequest[];
}

export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
  /**
   * Present and true when `totalElements` is a lower bound: there may be more matches than it says (a payments keyword
   * within picked dates, ADR 0125). Absent when the total is exact (or the search window's, ADR 0010).
   */
  totalIsLowerBound?: true;
}

// Identity
export interface SignUpRequest {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  termsAccepted: true;
  referralToken?: string;
  language?: Language;
}

export interface SignInRequest {
  email: string;
  password: string;
  /** An account with two-factor sign-in on sends a code from the authenticator, or one of their recovery codes. */
  otp?: string;
}

/**
 * The details of `error.otp.initialization.required`: a short-lived token that only the two-factor enrolment calls
 * accept, so a staff member the policy requires to enrol can do so before any session exists.
 */
export interface TwoFactorInitializationDetails {
  enrolmentToken: string;
  expiresInSeconds: number;
}

/** A started enrolment: what the authenticator app needs, as a QR image and as text for manual entry. */
export interface TwoFactorEnrolment {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUri: string;
  /** A PNG `data:` URL of the QR code of `otpauthUri`. */
  qrDataUrl: string;
}

/** A code proving possession of the authenticator (or, to turn it off, a recovery code). */
export interface TwoFactorCodeRequest {
  code: string;
}

/** Shown once after activation: the server keeps only their hashes. */
export interface TwoFactorActivation {
  recoveryCodes: string[];
}

export interface SignInResponse {
  accessToken: string;
  userUuid: string;
  email: string;
  userRole: UserRole;
}

export interface RefreshResponse {
  accessToken: string;
}

/**
 * A staff member's read-only look at a client's portal (docs/adr/0092-refund-to-balance-and-view-as.md): an access
 * token that is never a session, the opening's id in the client's log, and when the token ends.
 */
export interface ViewAsOpened {
  accessToken: string;
  viewId: string;
  expiresAt: IsoDateTime;
}

export interface ConfirmationResponse {
  status: UserStatus;
}

export interface EmailRequest {
  email: string;
  language?: Language;
}

export interface ResetPasswordRequest {
  token: string;
  password: string;
  confirmPassword: string;
}

export interface ChangePasswordRequest {
  oldPassword: string;
  password: string;
  confirmPassword: string;
  /** With two-factor sign-in on: a fresh authenticator code or an unused recovery code (step-up, ADR 0098). */
  otpCode?: string;
}

/** Asks to sign in with another address (docs/adr/0100-change-of-e-mail.md): nothing changes until its link is opened. */
export interface ChangeEmailRequest {
  newEmail: string;
  currentPassword: string;
  /** With two-factor sign-in on: a fresh authenticator code or an unused recovery code (step-up, ADR 0098). */
  otpCode?: string;
  /** The mails' language; the account's when absent. */
  language?: Language;
}

/** The token of the link mailed to the new address. */
export interface ConfirmEmailChangeRequest {
  token: string;
}

/** The address the account signs in with from now on. */
export interface EmailChangeResponse {
  email: string;
}

export interface SetUserPasswordRequest {
  password: string;
}

export interface ReferralSummary {
  profileId: string;
  link: string;
  totalReferrals: number;
  activeReferrals: number;
  discountPercent: number;
}

/** The account whose referral link a user signed up with (ADR 0078): staff see it on the client's detail and list. */
export interface UserReferrer {
  userUuid: string;
  profileId: string;
  fullName: string;
  email: string;
}

/**
 * A person's Telegram as staff see it on their detail (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md):
 * whether a chat is linked, since when, and since when the bot is blocked there (Telegram answered 403: nothing reaches
 * the chat until the person links again). Never the chat id or the Telegram username.
 */
export interface UserTelegram {
  linked: boolean;
  linkedAt: IsoDateTime | null;
  blockedAt: IsoDateTime | null;
}

export interface User {
  userUuid: string;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  role: UserRole;
  status: UserStatus;
  balance: number;
  profileId: string;
  userCreatedAt: IsoDateTime;
  trialUsed: boolean;
  trialRejected: boolean;
  /** Whether sign-in asks this (staff) account for a one-time code. */
  twoFactorEnabled: boolean;
  language: Language;
  referrals: ReferralSummary;
  /**
   * Staff answers only (`POST /users/search`, `POST /users/staff/search`, `GET /users/{uuid}` by staff): who referred
   * this account, null when nobody did. Absent from a customer's own record.
   */
  referrer?: UserReferrer | null;
  /** Staff answers of `GET /users/{uuid}` only: the person's Telegram link. Absent elsewhere. */
  telegram?: UserTelegram;
}

export interface CreateUserRequest {
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  password: string;
  /** The language of the account's mails; the default language when absent. */
  language?: Language;
}

export interface UpdateUserRequest {
  firstName: string;
  lastName: string;
}

export interface ChangeUserStatusRequest {
  status: UserStatus;
}

export interface ChangeUserRoleRequest {
  role: UserRole;
}

export interface UserSearchRequest extends SearchRequest {
  keyWord?: string;
  statuses?: UserStatus[];
  roles?: UserRole[];
  registrationDate?: DateRange;
}

/** `POST /users/staff/search` (admins only, ADR 0078): staff accounts, never customers, whatever the roles asked. */
export interface StaffSearchRequest extends SearchRequest {
  keyWord?: string;
  statuses?: UserStatus[];
  roles?: StaffRole[];
  twoFactorEnabled?: boolean;
}

export interface Note {
  id: string;
  userUuid: string;
  text: string;
  createdAt: IsoDateTime;
  createdBy: { id: string; name: string };
}

export interface CreateNoteRequest {
  text: string;
}

// Ledger
/**
 * A payment as its owner or staff read it (docs/api.md, Ledger). A payment's id is a positive integer: the payments
 * list filters by an integer id. `amount` is the payment's size; its direction comes from `type`
 * (`signedPaymentAmount`). What staff and customers see differs: see `StaffPayment`.
 */
export interface Payment {
  paymentId: number;
  userUuid: string;
  userEmail: string;
  amount: number;
  currency: Currency;
  status: PaymentStatus;
  method: PaymentMethod;
  type: PaymentType;
  aggregator: PaymentAggregator;
  /** Staff only: the internal reason staff recorded. A customer's answers leave the field out. */
  comment?: string | null;
  /** What staff chose to tell the client with the booking or the latest status change; null when nothing. */
  publicNote: string | null;
  senderProfileId: string | null;
  recipientProfileId: string | null;
  transferId: string | null;
  /** On a deposit that earned an ambassador bonus: that AMBASSADOR_BONUS payment's id; null otherwise. */
  bonusPaymentId: number | null;
  /** On an AMBASSADOR_BONUS payment: the deposit that earned it; null otherwise. */
  bonusForPaymentId: number | null;
  /** The referral discount of a SUBSCRIPTION_PAYMENT, in percent; 0 for every other payment. */
  discountPercent: number;
  /** A SUBSCRIPTION_PAYMENT staff refunded to the balance (ADR 0092): the REFUND payment that did it; null otherwise. */
  refundedByPaymentId?: number | null;
  createdAt: IsoDateTime;
  /**
   * Who booked it: for staff the actor's e-mail (or `SYSTEM`); for a customer their own e-mail when they did it
   * themselves, `PUBLIC_STAFF_ACTOR_NAME` when staff or the system did, and the sender's profile ID on a transfer in.
   */
  createdBy: string;
  updatedAt: IsoDateTime;
  /** Who changed it last, told the same way as `createdBy`. */
  updatedBy: string;
  /** A crypto deposit's invoice, provider payment and the amounts asked and received; null for other payments. */
  cashier?: PaymentCashier | null;
  /** A card deposit's checkout, provider payment and the amounts asked and received; null for other payments. */
  card?: PaymentCard | null;
  /**
   * On a deposit made to buy or renew a package (crypto deposit-and-buy or deposit-and-renew, a card checkout): what
   * follows once the money arrives and how it went; null on every other payment.
   */
  purchase?: DepositPurchase | null;
  /**
   * On a SUBSCRIPTION_PAYMENT (a purchase or renewal from the balance) and on the REFUND of one: the subscription and
   * its package's name as bought; left out on every other payment (docs/adr/0077-details-people-can-read.md).
   */
  paidFor?: PaidSubscription;
  /**
   * On a SUBSCRIPTION_PAYMENT that used a promo code: the code and the discount it gave (docs/adr/0088-promo-codes.md);
   * left out on every other payment.
   */
  promoCode?: PaymentPromoCode;
  /**
   * `GET /payments/{id}` of a transfer only: the other side's name as they entered it (first and last name), read
   * when the payment is read; null when no account answers for the profile ID any more. Never an e-mail or an id.
   */
  counterpartyName?: string | null;
}

/** The promo code a payment used and what it took off the list price, in dollars. */
export interface PaymentPromoCode {
  code: string;
  discount: number;
}

/** The subscription a balance payment bought or renewed, or a refund gave back. */
export interface PaidSubscription {
  subscriptionId: string;
  /** The package's name when the subscription was bought; null for a subscription of no package (a trial). */
  planName: string | null;
}

/** What a deposit pays for beyond the balance: a new subscription or the renewal of one. */
export const DEPOSIT_PURCHASE_KINDS = Object.freeze(['BUY', 'RENEW'] as const);
export type DepositPurchaseKind = (typeof DEPOSIT_PURCHASE_KINDS)[number];

/**
 * WAITING: the money has not settled yet. DONE: the subscription was bought or renewed (`subscriptionId`). FAILED: the
 * money arrived but the purchase could not follow (`errorCode`, e.g. `error.plan.no.longer.available`); it stays on
 * the balance. A deposit that never settles keeps WAITING and its payment says FAILED or TIMEOUT.
 */
export const DEPOSIT_PURCHASE_STATUSES = Object.freeze(['WAITING', 'DONE', 'FAILED'] as const);
export type DepositPurchaseStatus = (typeof DEPOSIT_PURCHASE_STATUSES)[number];

export interface DepositPurchase {
  kind: DepositPurchaseKind;
  paymentPlanId: string;
  planName: string;
  /** RENEW: the subscription to renew; BUY: the new subscription once DONE, else null. */
  subscriptionId: string | null;
  status: DepositPurchaseStatus;
  errorCode: ErrorCode | null;
}

/** A payment as staff read it: with the internal comment. */
export interface StaffPayment extends Payment {
  comment: string | null;
}

export interface ManualPaymentRequest {
  userUuid: string;
  /** Required unless `claimId` names the claim whose amount it takes. */
  amount?: number;
  action: BalanceFixAction;
  comment: string;
  correction?: boolean;
  /** Shown to the client with the payment (`checkPublicNote`); the comment never is. */
  publicNote?: string;
  /** A DEPOSIT that settles this manual-transfer claim of the same client (ADR 0112); the amount defaults to its. */
  claimId?: string;
}

export interface ChangePaymentStatusRequest {
  status: PaymentStatus;
  confirmNegativeBalance?: boolean;
  /** Shown to the client with the payment; replaces the note of an earlier booking or change. */
  publicNote?: string;
}

/**
 * What a refund of a subscription payment to the balance does to its subscription (ADR 0092): `NOW` ends it at once
 * (CANCELED, and the account is disabled at the streaming service); `AT_PERIOD_END` leaves it to run to its end date.
 */
export const REFUND_SUBSCRIPTION_ENDINGS = Object.freeze(['NOW', 'AT_PERIOD_END'] as const);
export type RefundSubscriptionEnding = (typeof REFUND_SUBSCRIPTION_ENDINGS)[number];

/** `POST /payments/{id}/refund-to-balance`: the whole payment back to the client's balance, with staff's reason. */
export interface RefundToBalanceRequest {
  reason: string;
  subscriptionEnding: RefundSubscriptionEnding;
}

export interface TransferRequest {
  recipient: string;
  amount: number;
  /** With two-factor sign-in on: a fresh authenticator code or an unused recovery code (step-up, ADR 0098). */
  otpCode?: string;
}

/** Names a transfer's recipient before the transfer is sent (`POST /payments/transfer/recipient`). */
export interface TransferRecipientRequest {
  recipient: string;
}

/** The recipient as registered, so the sender can confirm they found the right person. */
export interface TransferRecipient {
  fullName: string;
  /** The address with most characters hidden (`maskEmail`): `d***@e***.com`. */
  maskedEmail: string;
}

export interface CryptoDepositRequest {
  amount: number;
  method: CryptoMethod;
}

export interface CryptoDepositResponse {
  paymentId: number;
  invoiceUrl: string;
}

/**
 * The optional promo code a deposit or a card checkout opens with (docs/adr/0088-promo-codes.md), the same field as
 * `WithPromoCode` in promo-codes.ts (kept apart so that the two modules do not import each other): any case, surrounding
 * spaces dropped; absent or empty, no code.
 */
interface PromoCodeInBody {
  promoCode?: string;
}

/** `POST /payments/crypto/deposit-and-buy-subscription/payment-plans/{id}`; answered with `CryptoDepositResponse`. */
export interface CryptoDepositAndBuyRequest extends PromoCodeInBody {
  method: CryptoMethod;
  login: string;
  password: string;
}

/** `POST /payments/crypto/deposit-and-renew-subscription`; answered with `CryptoDepositResponse`. */
export interface CryptoDepositAndRenewRequest extends PromoCodeInBody {
  subscriptionId: string;
  method: CryptoMethod;
  /**
   * Dollars: the deposit the client was shown, the renewal's price less the referral discount plus any debt on the
   * balance. When sent, a renewal that now needs another amount is refused (409 `error.renewal.amount.changed`) before
   * the cashier is asked, so nobody pays an amount they did not see.
   */
  amount?: number;
}

/**
 * `POST /stripe/create-checkout-session/payment-plans/{id}` → `CardCheckoutResponse`. The hosted page returns to
 * `/paymentSuccess?paymentId=…` or `/paymentFailed?paymentId=…`, where the portal reads the payment's real outcome.
 */
export interface CardCheckoutRequest extends PromoCodeInBody {
  login: string;
  password: string;
}

/**
 * `POST /payments/card/deposit` → `CardCheckoutResponse`: a card top-up of the balance (ADR 0082), dollars within the
 * deposit limits. The hosted page returns to `/paymentSuccess?paymentId=…` or `/paymentFailed?paymentId=…`.
 */
export interface CardDepositRequest {
  amount: number;
}

export interface CardCheckoutResponse {
  paymentId: number;
  url: string;
}

export interface PaymentSearchRequest extends SearchRequest {
  keyWord?: string;
  id?: number | null;
  statuses?: PaymentStatus[];
  methods?: PaymentMethod[];
  types?: PaymentType[];
  aggregators?: PaymentAggregator[];
  createdDate?: DateRange;
  /** The payments that used this promo code (any case). */
  promoCode?: string;
}

/**
 * `POST /payments/export`: the search's filters and sorts without paging, and the IANA time zone its date-times are
 * written in (UTC when absent). The header row and labels follow the request's `Accept-Language`.
 */
export interface PaymentExportRequest extends Omit<PaymentSearchRequest, 'page' | 'size'> {
  timeZone?: string;
}

// Catalog
/** What an admin sets on a package (docs/product.md, Catalog); the price is in dollars, like every amount. */
export interface PlanRequest {
  name: string;
  durationInMonths: PlanDurationMonths;
  price: number;
  currency: Currency;
  isRecurrent: boolean;
  description: string;
  features: string[];
  status: PlanStatus;
  /** Whether the package may be bought by card checkout; true when absent. */
  cardPaymentAllowed?: boolean;
  /** The English name beside `name` (Hebrew, the default); empty or absent when there is none. */
  nameEn?: string;
  /** The English description beside `description`; empty or absent when there is none. */
  descriptionEn?: string;
}

export interface Plan extends PlanRequest {
  id: string;
  /**
   * False when staff marked the package as not for sale by card: the portal then offers no card checkout for it.
   * The API always fills it.
   */
  cardPaymentAllowed?: boolean;
  /** The API always fills both, empty when staff gave no English text. */
  nameEn?: string;
  descriptionEn?: string;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
  /**
   * Staff reads only (the packages search and a package's details; ADR 0078): how many subscriptions, of any status,
   * name the package. One or more means it cannot be deleted nor change its price or duration.
   */
  subscriptionCount?: number;
}

export interface ChangePlanStatusRequest {
  status: PlanStatus;
}

/** Clients find only ACTIVE packages, whatever statuses they ask for. */
export interface PlanSearchRequest extends SearchRequest {
  statuses?: PlanStatus[];
  /** Inclusive bounds in dollars. */
  price?: NumberRange;
}

// Subscriptions
/** How a client reaches the streaming service: each address null when not configured. */
export interface SubscriptionConnect {
  siteUrl: string | null;
  iosAppUrl: string | null;
  androidAppUrl: string | null;
}

export interface Subscription {
  id: string;
  userUuid: string;
  userEmail: string;
  /** The package bought; null for a trial, which belongs to no package. */
  paymentPlan: { planId: string; planName: string } | null;
  /** What the last period cost, in dollars, after any referral discount; 0 for a trial. */
  price: number;
  currency: Currency;
  status: SubscriptionStatus;
  type: SubscriptionType;
  durationInMonth: number;
  isRecurrent: boolean;
  /** Cancelled by its owner or staff: stays ACTIVE to `endDate`, then CANCELED, never renewed. */
  cancelAtPeriodEnd: boolean;
  /** When the automatic renewal charges the balance; null when it never will (not recurrent, cancelled, ended). */
  nextPaymentDate: IsoDateTime | null;
  /** How the automatic renewal is paid: the balance, the balance then the saved card, or the card only (ADR 0085). */
  renewalFunding: RenewalFunding;
  login: string;
  /** Null while PENDING: the period starts when the streaming service has the account. */
  startDate: IsoDateTime | null;
  endDate: IsoDateTime | null;
  /** GRACE only (ADR 0081): until when renewing brings it back with the same login; then it ends EXPIRED. */
  graceEndsAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  createdBy: string;
  updatedAt: IsoDateTime;
  updatedBy: string;
  /**
   * `GET /subscriptions/{id}` only: where the streaming service is reached (its site and app links, from the
   * server's configuration); left out when none is configured, and in lists.
   */
  connect?: SubscriptionConnect;
  /**
   * `GET /subscriptions/{id}` only: the days added to it without a payment (ADR 0089), oldest first, each with the
   * reason the client is told; never who added them. Left out in lists and when there are none.
   */
  extensions?: SubscriptionExtensionNote[];
  /**
   * `GET /subscriptions/{id}` only: the day voucher it was started with (ADR 0089), "Started with voucher ⟨label⟩: 30
   * days"; left out in lists and for a subscription that was bought.
   */
  startedByVoucher?: SubscriptionVoucherNote;
}

/** The day voucher a subscription was started with, as its owner reads it. */
export interface SubscriptionVoucherNote {
  days: number;
  /** The voucher batch's label. */
  label: string;
}

/** Days added to a subscription, as its owner reads them: "+2 days: ⟨reason⟩". */
export interface SubscriptionExtensionNote {
  days: number;
  reason: string;
  /** VOUCHER: the reason is a day voucher's label. */
  source: SubscriptionExtensionSource;
  /** The end date the days made. */
  endDate: IsoDateTime;
  extendedAt: IsoDateTime;
}

/** `POST /subscriptions/balance/payment-plans/{planId}` and `POST /subscriptions/users/{userUuid}/trial`. */
export interface BuySubscriptionRequest {
  login: string;
  password: string;
}

export type TakeTrialRequest = BuySubscriptionRequest;

/** `POST /subscriptions/renew/balance`. */
/** `POST /subscriptions/{id}/extension` (ADR 0089): days added without a payment, and why (the client sees it). */
export interface ExtendSubscriptionRequest {
  days: number;
  reason: string;
}

export interface RenewSubscriptionRequest {
  subscriptionId: string;
}

export interface ChangeSubscriptionLoginRequest {
  login: string;
}

export interface ChangeSubscriptionPasswordRequest {
  password: string;
}

/** `POST /subscriptions/search`; clients find their own subscriptions only, whatever they ask for. */
export interface SubscriptionSearchRequest extends SearchRequest {
  /** Subscription ids (uuids) or a prefix-free part of one. */
  ids?: string[];
  userUuid?: string;
  durationsInMonths?: PlanDurationMonths[];
  types?: SubscriptionType[];
  statuses?: SubscriptionStatus[];
  startDate?: DateRange;
  endDate?: DateRange;
  createdAt?: DateRange;
  /** Inclusive bounds in dollars. */
  price?: NumberRange;
}

/** One month's figure beside the month before, for the dashboard's comparisons. Amounts in dollars. */
export interface MonthComparison {
  thisMonth: number;
  lastMonth: number;
}

/** `GET /dashboard` (admin): what the business did this calendar month (UTC) against the last. */
export interface DashboardSummary {
  /**
   * Running subscriptions: ACTIVE (cancelled ones too, until their end) or UNSUBSCRIBED; not GRACE, whose account is
   * paused (ADR 0081).
   */
  activeSubscriptions: number;
  revenue: MonthComparison;
  deposits: MonthComparison;
  newSubscriptions: MonthComparison;
  /** Recurrent subscriptions whose automatic renewal falls within the next seven days (GRACE ones' next attempt too). */
  renewalsDueThisWeek: number;
  /** Revenue and deposits per day of the last 30 days, oldest first, for the charts. */
  daily: { date: string; revenue: number; deposits: number }[];
  /**
   * What the funded voucher batches still owe now (the balance of `liability:vouchers`), in dollars
   * (docs/adr/0089-prepaid-vouchers.md).
   */
  voucherLiability: number;
  /** What was given away this calendar month (UTC), in dollars. */
  discountsThisMonth: DashboardDiscounts;
  /** What needs a person, one group per kind in `DASHBOARD_QUEUE_KINDS` order. */
  queue: DashboardQueueGroup[];
}

/**
 * What needs a person, in the dashboard's queue (docs/product.md, Dashboard): provisioning that failed for good,
 * subscriptions whose renewal failed (in GRACE), payments held for review, large deposits.
 */
export const DASHBOARD_QUEUE_KINDS = Object.freeze([
  'PROVISIONING_FAILED',
  'RENEWAL_FAILED',
  'PAYMENT_REVIEW',
  'LARGE_DEPOSIT',
] as const);
export type DashboardQueueKind = (typeof DASHBOARD_QUEUE_KINDS)[number];

/** One record in the queue: a subscription (the first two kinds) or a payment (the others). */
export interface DashboardQueueItem {
  /** The subscription's uuid, or the payment's number as text. */
  id: string;
  userEmail: string;
  /** The payment's dollars; null for a subscription. */
  amount: number | null;
  /** When it happened: the job's failure, the renewal's next attempt, the payment's creation. */
  at: IsoDateTime;
}

/** One kind of the queue: how many there are, and the latest few. */
export interface DashboardQueueGroup {
  kind: DashboardQueueKind;
  count: number;
  latest: DashboardQueueItem[];
}

/** The month's discounts by kind (docs/product.md, Dashboard). */
export interface DashboardDiscounts {
  /** Referral discounts on subscription payments: list price less the price paid. */
  referral: number;
  /** What promo codes took off the list price. */
  promoCode: number;
  /** The worth of the voucher batches given away (not sold) this month. */
  voucherGiveaways: number;
}

// Audit
export interface AuditChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

/**
 * What an activity-log entry points at. `name` and `email` name the person behind a user id (ADMIN, MANAGER,
 * CLIENT), read when the entry is read, so they follow later renames; they are null for an id no account answers to.
 * A package is named by its current name, a subscription by its package's name as bought; a package that no longer
 * exists by the last name its entries recorded (`nameRecorded`). A payment is named by its number, which is its id.
 */
export interface AuditRef {
  type: AuditTargetType;
  id: string;
  name: string | null;
  email: string | null;
  /**
   * True when `name` is what the log's own entries recorded, because what owns the target no longer answers for it
   * (a deleted package): the name is right for the entry, but there is no screen to open. Left out otherwise.
   */
  nameRecorded?: boolean;
  /**
   * Set when `name` is a value of this enum rather than a name (a trial subscription, which no package names, by its
   * `subscriptionType`): screens show the enum's label in their language. Left out otherwise.
   */
  nameEnum?: 'subscriptionType';
}

export interface AuditLog {
  id: string;
  createdAt: IsoDateTime;
  createdBy: { id: string; name: string };
  operationType: AuditOperationType;
  target: AuditRef;
  parent: AuditRef | null;
  changes: AuditChange[];
  eventType: string;
}

export interface AuditLogSearchRequest extends SearchRequest {
  createdAt?: DateRange;
  targetAndParentTypes?: AuditTargetType[];
  targetAndParentIds?: string[];
  operationTypes?: AuditOperationType[];
}

// Common
export interface AppVersion {
  name: string;
  version: string;
  commit: string | null;
}

export interface DictionaryEntry {
  value: string | number;
  he: string;
  en: string;
}

/** Where clients reach support, as the deployment configures it; a contact that is not configured is null. */
export interface SupportContacts {
  /** A `https://t.me/…` link. */
  telegram: string | null;
  email: string | null;
}

export interface Dictionaries {
  enums: Record<string, DictionaryEntry[]>;
  limits: Record<string, number>;
  support: SupportContacts;
  /** The reward tables this deployment runs with, so screens show the tiers that actually apply. */
  rewardTiers: RewardTierTables;
  /** Whether a card provider is configured (`STRIPE_*`): without one the portal hides card checkout. */
  cardCheckoutAvailable?: boolean;
  /**
   * Whether the balance can be topped up by card: a card provider is configured and the operator's switch
   * (`CARD_BALANCE_PAYMENTS`) is on (ADR 0082). The portal offers the card on the top-up page only then.
   */
  cardTopUpAvailable?: boolean;
  /**
   * Whether crypto deposits can be made: a cashier is configured (`CASHIER_URL`) or the sandbox runs (`KUPA_SANDBOX`).
   * Without one the portal says so instead of offering the form.
   */
  cryptoDepositAvailable?: boolean;
  /**
   * The streaming service's site (`STREAMING_SITE_URL`, the address a subscription's "How to connect" shows), which the
   * portal links from its sidebar; null when none is configured, and then the portal shows no such link.
   */
  streamingSiteUrl?: string | null;
}

export interface RewardTierTables {
  referralDiscount: ReferralDiscountTier[];
  ambassadorBonus: AmbassadorBonusTier[];
}

// Ledger accounts and history (docs/product.md, Ledger)
/** The person whose balance a `user:{uuid}` account is, as the account history names them. */
export interface AccountHolder {
  userUuid: string;
  fullName: string;
  email: string;
}

/** One posting as seen from one account: positive amounts credit the account, negative ones debit it. */
export interface LedgerEntry {
  transactionId: string;
  paymentId: number | null;
  account: string;
  counterAccount: string;
  /** Who the counter-account belongs to when it is a user account; null for system accounts. */
  counterAccountHolder: AccountHolder | null;
  amount: number;
  balanceAfter: number;
  occurredAt: IsoDateTime;
  eventType: string;
}

export interface AccountHistory {
  account: string;
  /** Who the account belongs to when it is a user account; null for system accounts. */
  holder: AccountHolder | null;
  asOf: IsoDateTime;
  /** The account's balance at `asOf`. */
  balance: number;
  entries: Page<LedgerEntry>;
}

/** One posting to a client's wallet in a statement (ADR 0096), oldest first. */
export interface StatementLine {
  occurredAt: IsoDateTime;
  /** The client's own payment the posting belongs to: for a transfer received, the TRANSFER_IN. */
  paymentId: number | null;
  /** The event that booked the posting, as the side the client is on: a transfer they received reads as received. */
  eventType: string;
  /** The posting in words: the activity log's sentence of that event, in the statement's language. */
  description: string;
  /** Signed from the client's side: positive reached the balance, negative left it. */
  amount: number;
  /** The balance right after this posting. */
  balanceAfter: number;
}

/**
 * `GET /users/{uuid}/statement`: a client's wallet over the period [from, to). A plain typed result: the screens, the
 * CSV file and a PDF renderer all read this one shape.
 */
export interface AccountStatement {
  userUuid: string;
  account: string;
  from: IsoDateTime;
  to: IsoDateTime;
  language: Language;
  /** The balance at `from`: every posting booked before it. */
  openingBalance: number;
  /** The balance at `to`: the opening balance and every line's amount. */
  closingBalance: number;
  /** What reached the balance in the period, and what left it (a positive number). */
  creditsTotal: number;
  debitsTotal: number;
  lines: StatementLine[];
}

/** `GET /users/{uuid}/balance?at=`: the balance as the ledger held it at an instant, postings at `at` included. */
export interface BalanceAtInstant {
  userUuid: string;
  at: IsoDateTime;
  balance: number;
}
