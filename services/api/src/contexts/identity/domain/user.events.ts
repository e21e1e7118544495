export {
  USER_EVENT_TYPES,
  type UserEvent,
  type UserEventType,
  type UserEventDataByType,
  userStreamId,
  USER_STREAM_PREFIX,
} from '@kupa/proto';
import { USER_EVENT_TYPES, type UserEventType } from '@kupa/proto';

/** Every identity event type, for the event type registry, the projection and the audit mappers. */
export const ALL_USER_EVENT_TYPES: readonly UserEventType[] = Object.freeze(Object.values(USER_EVENT_TYPES));
