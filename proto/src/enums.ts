/**
 * Every enumeration of the product (docs/product.md), defined once as a frozen list plus its union type.
 * The lists are what validators and dictionaries iterate over; the types are what code switches on.
 */

function enumOf<const T extends readonly string[]>(values: T): T {
  return Object.freeze(values) as T;
}

export const USER_STATUSES = enumOf(['NON_VERIFIED', 'ACTIVE', 'BLOCKED'] as const);
export type UserStatus = (typeof USER_STATUSES)[number];

export const USER_ROLES = enumOf(['ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR'] as const);
export type UserRole = (typeof USER_ROLES)[number];
export const STAFF_ROLES = enumOf(['ADMIN', 'MANAGER'] as const);
export const CUSTOMER_ROLES = enumOf(['CLIENT', 'AMBASSADOR'] as const);
export type StaffRole = (typeof STAFF_ROLES)[number];
export type CustomerRole = (typeof CUSTOMER_ROLES)[number];

export function isStaffRole(role: UserRole): role is StaffRole {
  return role === 'ADMIN' || role === 'MANAGER';
}

export const PAYMENT_STATUSES = enumOf([
  'PENDING',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'REFUNDED',
  'TIMEOUT',
  // A provider reported money that differs from what was asked: nothing credited, held for staff (ADR 0058).
  'REVIEW',
] as const);
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TYPES = enumOf([
  'SUBSCRIPTION_PAYMENT',
  'DEPOSIT',
  'WITHDRAW',
  'TRANSFER_IN',
  'TRANSFER_OUT',
  'REFUND',
  'AMBASSADOR_BONUS',
] as const);
export type PaymentType = (typeof PAYMENT_TYPES)[number];

/** Payment types that bring money to the user; the others take it away (docs/product.md, Ledger). */
export const CREDITING_PAYMENT_TYPES = enumOf(['DEPOSIT', 'TRANSFER_IN', 'REFUND', 'AMBASSADOR_BONUS'] as const);

export function creditsUser(type: PaymentType): boolean {
  return (CREDITING_PAYMENT_TYPES as readonly PaymentType[]).includes(type);
}

export const PAYMENT_AGGREGATORS = enumOf(['CASHIER', 'MANUAL', 'INTERNAL_BALANCE', 'INTERNAL', 'STRIPE'] as const);
export type PaymentAggregator = (typeof PAYMENT_AGGREGATORS)[number];

export const PAYMENT_METHODS = enumOf([
  'MANUAL_TRANSFER',
  'CRYPTO_USDT_TRC20',
  'CRYPTO_USDT_ERC20',
  'CRYPTO_USDC_ERC20',
  'CRYPTO_DAI_ERC20',
  'CRYPTO_BTC',
  'CRYPTO_ETH',
  'CRYPTO_LTC',
  'STRIPE',
  'CARD',
  'BALANCE',
  'VOUCHER',
] as const);
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const CRYPTO_METHODS = enumOf([
  'CRYPTO_USDT_TRC20',
  'CRYPTO_USDT_ERC20',
  'CRYPTO_USDC_ERC20',
  'CRYPTO_DAI_ERC20',
  'CRYPTO_BTC',
  'CRYPTO_ETH',
  'CRYPTO_LTC',
] as const);
export type CryptoMethod = (typeof CRYPTO_METHODS)[number];

export const CURRENCIES = enumOf(['USD'] as const);
export type Currency = (typeof CURRENCIES)[number];

/** Plan durations in months: monthly, two months, quarterly, yearly. */
export const PLAN_DURATIONS_MONTHS = Object.freeze([1, 2, 3, 12] as const);
export type PlanDurationMonths = (typeof PLAN_DURATIONS_MONTHS)[number];
export const PLAN_DURATION_NAMES: Readonly<Record<PlanDurationMonths, string>> = Object.freeze({
  1: 'monthly',
  2: 'two_month',
  3: 'quarterly',
  12: 'yearly',
});

export const PLAN_STATUSES = enumOf(['ACTIVE', 'INACTIVE'] as const);
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = enumOf([
  'PENDING',
  'ACTIVE',
  'EXPIRED',
  'CANCELED',
  'UNSUBSCRIBED',
  'GRACE',
] as const);
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_TYPES = enumOf(['REGULAR', 'TRIAL', 'TRIAL_FOR_NEW_USERS'] as const);
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

export const AUDIT_OPERATION_TYPES = enumOf(['CREATED', 'UPDATED', 'DELETED'] as const);
export type AuditOperationType = (typeof AUDIT_OPERATION_TYPES)[number];

export const AUDIT_TARGET_TYPES = enumOf([
  'ADMIN',
  'MANAGER',
  'CLIENT',
  'PACKAGE',
  'SUBSCRIPTION',
  'PAYMENT',
  'PROMO_CODE',
  'VOUCHER_BATCH',
  'BULK_BATCH',
  'BROADCAST',
] as const);
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const SORT_ORDERS = enumOf(['ASC', 'DESC'] as const);
export type SortOrder = (typeof SORT_ORDERS)[number];

export const BALANCE_FIX_ACTIONS = enumOf(['DEPOSIT', 'WITHDRAW'] as const);
export type BalanceFixAction = (typeof BALANCE_FIX_ACTIONS)[number];

export const LANGUAGES = enumOf(['he', 'en'] as const);
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'he';
/** The BCP 47 locale each language formats numbers and amounts in, on every screen and in every file. */
export const LANGUAGE_LOCALES: Readonly<Record<Language, string>> = Object.freeze({ he: 'he-IL', en: 'en-US' });

export const THEME_MODES = enumOf(['light', 'dark', 'system'] as const);
export type ThemeMode = (typeof THEME_MODES)[number];
export const THEME_STORAGE_KEY = 'ui-theme';
export const DEFAULT_THEME_MODE: ThemeMode = 'system';

/** The actor recorded when the system, not a person, causes an event (docs/product.md, Who uses it). */
export const SYSTEM_ACTOR_NAME = 'SYSTEM';
export const SYSTEM_ACTOR_ID = 'USER-00000000-0000-0000-0000-000000000000';

export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/**
 * How a recurrent subscription's automatic renewal is paid: from the balance only (as always), from the balance and
 * the saved card for what is missing, or from the saved card only.
 */
export const RENEWAL_FUNDINGS = enumOf(['BALANCE', 'BALANCE_THEN_CARD', 'CARD'] as const);
export type RenewalFunding = (typeof RENEWAL_FUNDINGS)[number];

/** How an off-session card renewal attempt failed (docs/adr/0086-renewals-charged-to-the-saved-card.md). */
export const CARD_RENEWAL_FAILURES = enumOf(['DECLINED', 'REQUIRES_ACTION', 'ABANDONED'] as const);
export type CardRenewalFailure = (typeof CARD_RENEWAL_FAILURES)[number];
/**
 * Who added days to a subscription (ADR 0089): staff for one subscription, a bulk operation over many, or a day
 * voucher its owner redeemed.
 */
export const SUBSCRIPTION_EXTENSION_SOURCES = enumOf(['STAFF', 'BULK', 'VOUCHER'] as const);
export type SubscriptionExtensionSource = (typeof SUBSCRIPTION_EXTENSION_SOURCES)[number];

export const DEFAULT_RENEWAL_FUNDING: RenewalFunding = 'BALANCE';
