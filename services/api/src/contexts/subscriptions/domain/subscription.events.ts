export {
  SUBSCRIPTION_EVENT_TYPES,
  SUBSCRIPTION_STREAM_PREFIX,
  type SubscriptionEvent,
  type SubscriptionEventDataByType,
  type SubscriptionEventType,
  type SubscriptionPurchasedData,
  subscriptionStreamId,
} from '@kupa/proto';
import { SUBSCRIPTION_EVENT_TYPES, type SubscriptionEventType } from '@kupa/proto';

/** Every subscription event type, for the event type registry, the projection and the audit mappers. */
export const ALL_SUBSCRIPTION_EVENT_TYPES: readonly SubscriptionEventType[] = Object.freeze(
  Object.values(SUBSCRIPTION_EVENT_TYPES),
);
