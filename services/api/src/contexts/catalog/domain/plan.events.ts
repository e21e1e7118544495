export {
  PAYMENT_PLAN_EVENT_TYPES,
  type PaymentPlanEvent,
  type PaymentPlanEventDataByType,
  type PaymentPlanEventType,
  type PaymentPlanTerms,
  planStreamId,
  PLAN_STREAM_PREFIX,
} from '@kupa/proto';
import { PAYMENT_PLAN_EVENT_TYPES, type PaymentPlanEventType } from '@kupa/proto';

/** Every catalog event type, for the event type registry, the projection and the audit mappers. */
export const ALL_PAYMENT_PLAN_EVENT_TYPES: readonly PaymentPlanEventType[] = Object.freeze(
  Object.values(PAYMENT_PLAN_EVENT_TYPES),
);

/** Version 1 packages were created and updated before card checkout: every one of them may be bought by card. */
const cardPaymentAllowed = (data: unknown): unknown => ({
  ...(data as Record<string, unknown>),
  cardPaymentAllowed: true,
});

/** Version 2 packages had no English texts: they read as having none, and readers see the Hebrew ones. */
const noEnglishTexts = (data: unknown): unknown => ({
  ...(data as Record<string, unknown>),
  nameEn: '',
  descriptionEn: '',
});

/**
 * The catalog event types whose data changed since their first version; stored history is lifted on every read
 * (the event store's upcasting), never rewritten.
 */
export const PAYMENT_PLAN_EVENT_SCHEMAS: Readonly<
  Partial<
    Record<PaymentPlanEventType, { schemaVersion: number; upcasters: Record<number, (data: unknown) => unknown> }>
  >
> = Object.freeze({
  PaymentPlanCreated: { schemaVersion: 3, upcasters: { 1: cardPaymentAllowed, 2: noEnglishTexts } },
  PaymentPlanUpdated: { schemaVersion: 3, upcasters: { 1: cardPaymentAllowed, 2: noEnglishTexts } },
});
