import {
  AUDIT_OPERATION_TYPES,
  AUDIT_TARGET_TYPES,
  BALANCE_FIX_ACTIONS,
  CURRENCIES,
  type Dictionaries,
  LANGUAGES,
  type DictionaryEntry,
  type EnumName,
  LIMITS,
  PAYMENT_AGGREGATORS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  PLAN_DURATIONS_MONTHS,
  PLAN_STATUSES,
  SORT_ORDERS,
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_TYPES,
  USER_ROLES,
  USER_STATUSES,
  enumLabel,
} from '@kupa/proto';

const ENUM_VALUES: Record<EnumName, readonly (string | number)[]> = {
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
};

/** Every enum with its he/en labels and every limit: what a client needs to render forms without hard-coding. */
export function buildDictionaries(): Dictionaries {
  const enums: Record<string, DictionaryEntry[]> = {};
  for (const [name, values] of Object.entries(ENUM_VALUES) as [EnumName, readonly (string | number)[]][]) {
    enums[name] = values.map((value) => ({
      value,
      he: enumLabel(name, value, 'he'),
      en: enumLabel(name, value, 'en'),
    }));
  }
  return { enums, limits: { ...LIMITS } };
}
