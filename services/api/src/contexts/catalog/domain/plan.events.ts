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
