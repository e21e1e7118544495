import {
  AUDIT_OPERATION_TYPES,
  AUDIT_TARGET_TYPES,
  BALANCE_FIX_ACTIONS,
  CURRENCIES,
  type Language,
  LANGUAGES,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  PLAN_DURATIONS_MONTHS,
  PLAN_STATUSES,
  RENEWAL_FUNDINGS,
  CARD_RENEWAL_FAILURES,
  SORT_ORDERS,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  USER_ROLES,
  USER_STATUSES,
} from './enums';
import { DEPOSIT_PURCHASE_KINDS, DEPOSIT_PURCHASE_STATUSES } from './payloads';

/** Hebrew and English labels for every enum value shown on a screen or in /dictionaries. */
type Labels = Readonly<Record<string, Readonly<Record<Language, string>>>>;

/**
 * The labels of the enums a client can see in the portal. The portal reads only these (`clientEnumLabel`), so that
 * the staff-only ones below stay out of its first screen (docs/adr/0048-first-screen-in-one-chunk.md).
 */
export const CLIENT_ENUM_LABELS = {
  userStatus: {
    NON_VERIFIED: { he: 'לא מאומת', en: 'Not verified' },
    ACTIVE: { he: 'פעיל', en: 'Active' },
    BLOCKED: { he: 'חסום', en: 'Blocked' },
  },
  userRole: {
    ADMIN: { he: 'מנהל מערכת', en: 'Admin' },
    MANAGER: { he: 'מנהל', en: 'Manager' },
    CLIENT: { he: 'לקוח', en: 'Client' },
    AMBASSADOR: { he: 'שגריר', en: 'Ambassador' },
  },
  paymentStatus: {
    PENDING: { he: 'ממתין', en: 'Pending' },
    SUCCESS: { he: 'הצליח', en: 'Success' },
    FAILED: { he: 'נכשל', en: 'Failed' },
    REJECTED: { he: 'נדחה', en: 'Rejected' },
    REFUNDED: { he: 'הוחזר', en: 'Refunded' },
    TIMEOUT: { he: 'פג זמן', en: 'Timed out' },
    REVIEW: { he: 'בבדיקת צוות', en: 'Held for review' },
  },
  paymentType: {
    SUBSCRIPTION_PAYMENT: { he: 'תשלום מנוי', en: 'Subscription payment' },
    DEPOSIT: { he: 'הפקדה', en: 'Deposit' },
    WITHDRAW: { he: 'משיכה', en: 'Withdrawal' },
    TRANSFER_IN: { he: 'העברה נכנסת', en: 'Transfer in' },
    TRANSFER_OUT: { he: 'העברה יוצאת', en: 'Transfer out' },
    REFUND: { he: 'החזר', en: 'Refund' },
    AMBASSADOR_BONUS: { he: 'בונוס שגריר', en: 'Ambassador bonus' },
  },
  paymentAggregator: {
    CASHIER: { he: 'קופת קריפטו', en: 'Crypto cashier' },
    MANUAL: { he: 'ידני', en: 'Manual' },
    INTERNAL_BALANCE: { he: 'יתרה פנימית', en: 'Internal balance' },
    INTERNAL: { he: 'פנימי', en: 'Internal' },
    STRIPE: { he: 'Stripe', en: 'Stripe' },
  },
  paymentMethod: {
    MANUAL_TRANSFER: { he: 'העברה ידנית', en: 'Manual transfer' },
    CRYPTO_USDT_TRC20: { he: 'USDT (TRC20)', en: 'USDT (TRC20)' },
    CRYPTO_USDT_ERC20: { he: 'USDT (ERC20)', en: 'USDT (ERC20)' },
    CRYPTO_USDC_ERC20: { he: 'USDC (ERC20)', en: 'USDC (ERC20)' },
    CRYPTO_DAI_ERC20: { he: 'DAI (ERC20)', en: 'DAI (ERC20)' },
    CRYPTO_BTC: { he: 'ביטקוין', en: 'Bitcoin' },
    CRYPTO_ETH: { he: 'את׳ריום', en: 'Ethereum' },
    CRYPTO_LTC: { he: 'לייטקוין', en: 'Litecoin' },
    STRIPE: { he: 'Stripe', en: 'Stripe' },
    CARD: { he: 'כרטיס אשראי', en: 'Card' },
    BALANCE: { he: 'יתרה', en: 'Balance' },
    VOUCHER: { he: 'שובר', en: 'Voucher' },
  },
  planStatus: {
    ACTIVE: { he: 'פעילה', en: 'Active' },
    INACTIVE: { he: 'לא פעילה', en: 'Inactive' },
  },
  planDuration: {
    1: { he: 'חודשי', en: 'Monthly' },
    2: { he: 'חודשיים', en: 'Two months' },
    3: { he: 'רבעוני', en: 'Quarterly' },
    12: { he: 'שנתי', en: 'Yearly' },
  },
  subscriptionStatus: {
    PENDING: { he: 'ממתין', en: 'Pending' },
    ACTIVE: { he: 'פעיל', en: 'Active' },
    EXPIRED: { he: 'פג תוקף', en: 'Expired' },
    CANCELED: { he: 'בוטל', en: 'Canceled' },
    UNSUBSCRIBED: { he: 'חידוש אוטומטי כבוי', en: 'Unsubscribed' },
    GRACE: { he: 'מושהה, ממתין לתשלום', en: 'Paused, awaiting payment' },
  },
  subscriptionType: {
    REGULAR: { he: 'רגיל', en: 'Regular' },
    TRIAL: { he: 'ניסיון', en: 'Trial' },
    TRIAL_FOR_NEW_USERS: { he: 'ניסיון למשתמשים חדשים', en: 'Trial for new users' },
  },
  currency: {
    USD: { he: 'דולר אמריקאי', en: 'US dollar' },
  },
  language: {
    he: { he: 'עברית', en: 'Hebrew' },
    en: { he: 'אנגלית', en: 'English' },
  },
  depositPurchaseKind: {
    BUY: { he: 'רכישת חבילה', en: 'Package purchase' },
    RENEW: { he: 'חידוש מנוי', en: 'Subscription renewal' },
  },
  depositPurchaseStatus: {
    WAITING: { he: 'ממתין לכסף', en: 'Waiting for the money' },
    DONE: { he: 'בוצע', en: 'Done' },
    FAILED: { he: 'נכשל', en: 'Failed' },
  },
  renewalFunding: {
    BALANCE: { he: 'מהיתרה', en: 'From the balance' },
    BALANCE_THEN_CARD: { he: 'מהיתרה, והחסר מהכרטיס', en: 'Balance first, then the card' },
    CARD: { he: 'מהכרטיס בלבד', en: 'Card only' },
  },
  cardRenewalFailure: {
    DECLINED: { he: 'הכרטיס נדחה', en: 'Card declined' },
    REQUIRES_ACTION: { he: 'נדרש אישור של בעל הכרטיס', en: 'The card holder must confirm' },
    ABANDONED: { he: 'לא התקבלה תשובה בזמן', en: 'No answer in time' },
  },
} as const satisfies Record<string, Labels>;

/** The labels of the enums only staff screens show: the activity log's, balance fixes, sort orders. */
export const STAFF_ENUM_LABELS = {
  auditOperationType: {
    CREATED: { he: 'נוצר', en: 'Created' },
    UPDATED: { he: 'עודכן', en: 'Updated' },
    DELETED: { he: 'נמחק', en: 'Deleted' },
  },
  auditTargetType: {
    ADMIN: { he: 'מנהל מערכת', en: 'Admin' },
    MANAGER: { he: 'מנהל', en: 'Manager' },
    CLIENT: { he: 'לקוח', en: 'Client' },
    PACKAGE: { he: 'חבילה', en: 'Package' },
    SUBSCRIPTION: { he: 'מנוי', en: 'Subscription' },
    PAYMENT: { he: 'תשלום', en: 'Payment' },
    PROMO_CODE: { he: 'קוד הנחה', en: 'Promo code' },
    VOUCHER_BATCH: { he: 'סדרת שוברים', en: 'Voucher batch' },
    BULK_BATCH: { he: 'פעולה גורפת', en: 'Bulk operation' },
    BROADCAST: { he: 'הודעה לכל הלקוחות', en: 'Broadcast' },
  },
  sortOrder: {
    ASC: { he: 'עולה', en: 'Ascending' },
    DESC: { he: 'יורד', en: 'Descending' },
  },
  balanceFixAction: {
    DEPOSIT: { he: 'הפקדה', en: 'Deposit' },
    WITHDRAW: { he: 'משיכה', en: 'Withdrawal' },
  },
} as const satisfies Record<string, Labels>;

/**
 * Every enum's labels, for the API's /dictionaries, the staff console and the activity log's sentences. Built in a
 * call marked pure, as `ERROR_CATALOGUE` is: a bare spread would keep the staff part in a bundle that never reads it.
 */
export const ENUM_LABELS: typeof CLIENT_ENUM_LABELS & typeof STAFF_ENUM_LABELS = /* @__PURE__ */ (() => ({
  ...CLIENT_ENUM_LABELS,
  ...STAFF_ENUM_LABELS,
}))();

export type EnumName = keyof typeof ENUM_LABELS;
export type ClientEnumName = keyof typeof CLIENT_ENUM_LABELS;

/**
 * The values of each labelled enumeration, for what lists them all (`GET /dictionaries`, the test that every value
 * has both labels). Marked pure so that the portal, which lists none, does not carry it.
 */
export const ENUM_VALUES: Readonly<Record<EnumName, readonly (string | number)[]>> = /* @__PURE__ */ Object.freeze({
  userStatus: USER_STATUSES,
  userRole: USER_ROLES,
  paymentStatus: PAYMENT_STATUSES,
  paymentType: PAYMENT_TYPES,
  paymentAggregator: PAYMENT_AGGREGATORS,
  paymentMethod: PAYMENT_METHODS,
  planStatus: PLAN_STATUSES,
  planDuration: PLAN_DURATIONS_MONTHS,
  subscriptionStatus: SUBSCRIPTION_STATUSES,
  subscriptionType: SUBSCRIPTION_TYPES,
  auditOperationType: AUDIT_OPERATION_TYPES,
  auditTargetType: AUDIT_TARGET_TYPES,
  sortOrder: SORT_ORDERS,
  balanceFixAction: BALANCE_FIX_ACTIONS,
  currency: CURRENCIES,
  language: LANGUAGES,
  depositPurchaseKind: DEPOSIT_PURCHASE_KINDS,
  depositPurchaseStatus: DEPOSIT_PURCHASE_STATUSES,
  renewalFunding: RENEWAL_FUNDINGS,
  cardRenewalFailure: CARD_RENEWAL_FAILURES,
});

export function enumLabel(name: EnumName, value: string | number, lang: Language): string {
  const labels = ENUM_LABELS[name] as Labels;
  return labels[String(value)]?.[lang] ?? String(value);
}

/** `enumLabel` over the enums a client can see only: what the portal and the rules it shares call. */
export function clientEnumLabel(name: ClientEnumName, value: string | number, lang: Language): string {
  const labels = CLIENT_ENUM_LABELS[name] as Labels;
  return labels[String(value)]?.[lang] ?? String(value);
}
