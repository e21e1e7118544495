import { BROADCAST_EVENT_TYPES, type BroadcastEventType } from './broadcasts';
import { BULK_EVENT_TYPES, type BulkEventType } from './bulk-operations';
import { DEPOSIT_ATTENTION_EVENT_TYPES, type DepositAttentionEventType } from './deposit-attention';
import { DEPOSIT_CLAIM_EVENT_TYPES, type DepositClaimEventType } from './deposit-claims';
import { PAYMENT_PLAN_EVENT_TYPES, type PaymentPlanEventType } from './catalog-events';
import { USER_EVENT_TYPES, type UserEventType } from './identity-events';
import { LEDGER_EVENT_TYPES, type LedgerEventType } from './ledger-events';
import {
  NOTIFICATION_PREFERENCES_EVENT_TYPES,
  type NotificationPreferencesEventType,
} from './notification-preferences';
import { PROMO_CODE_EVENT_TYPES, type PromoCodeEventType } from './promo-codes';
import { SAVED_CARD_EVENT_TYPES, type SavedCardEventType } from './saved-cards';
import { TELEGRAM_EVENT_TYPES, type TelegramEventType } from './telegram';
import { SUBSCRIPTION_EVENT_TYPES, type SubscriptionEventType } from './subscription-events';
import { VOUCHER_EVENT_TYPES, type VoucherEventType } from './vouchers';

/**
 * Every event type the product stores, across contexts (docs/ARCHITECTURE.md, Event catalogue). The API registers
 * exactly these with its event store (an API spec checks that the two lists agree), and the activity log and the
 * account history give each of them a name and a sentence in both languages (`event-text.ts`, checked by a test).
 */
export type EventType =
  | UserEventType
  | LedgerEventType
  | PaymentPlanEventType
  | SubscriptionEventType
  | SavedCardEventType
  | PromoCodeEventType
  | VoucherEventType
  | BulkEventType
  | BroadcastEventType
  | DepositAttentionEventType
  | DepositClaimEventType
  | TelegramEventType
  | NotificationPreferencesEventType;

export const EVENT_TYPES: readonly EventType[] = Object.freeze([
  ...Object.values(USER_EVENT_TYPES),
  ...Object.values(LEDGER_EVENT_TYPES),
  ...Object.values(PAYMENT_PLAN_EVENT_TYPES),
  ...Object.values(SUBSCRIPTION_EVENT_TYPES),
  ...Object.values(SAVED_CARD_EVENT_TYPES),
  ...Object.values(PROMO_CODE_EVENT_TYPES),
  ...Object.values(VOUCHER_EVENT_TYPES),
  ...Object.values(BULK_EVENT_TYPES),
  ...Object.values(BROADCAST_EVENT_TYPES),
  ...Object.values(DEPOSIT_ATTENTION_EVENT_TYPES),
  ...Object.values(DEPOSIT_CLAIM_EVENT_TYPES),
  ...Object.values(TELEGRAM_EVENT_TYPES),
  ...Object.values(NOTIFICATION_PREFERENCES_EVENT_TYPES),
]);

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isKnownEventType(value: string): value is EventType {
  return KNOWN_EVENT_TYPES.has(value);
}
