import type { BroadcastEventDataByType } from './broadcasts';
import type { TelegramEventDataByType } from './telegram';
import type { BulkEventDataByType } from './bulk-operations';
import type { DepositAttentionEventDataByType } from './deposit-attention';
import type { DepositClaimEventDataByType } from './deposit-claims';
import type { PaymentPlanEventDataByType } from './catalog-events';
import type { EventType } from './event-catalogue';
import type { UserEventDataByType } from './identity-events';
import type { LedgerEventDataByType } from './ledger-events';
import type { NotificationPreferencesEventDataByType } from './notification-preferences';
import type { IsoDateTime } from './payloads';
import type { PromoCodeEventDataByType } from './promo-codes';
import type { SavedCardEventDataByType } from './saved-cards';
import type { SubscriptionEventDataByType } from './subscription-events';
import type { VoucherEventDataByType } from './vouchers';

/** The payload of every event type the product stores, by type. */
export interface EventDataByType
  extends
    UserEventDataByType,
    LedgerEventDataByType,
    PaymentPlanEventDataByType,
    SubscriptionEventDataByType,
    SavedCardEventDataByType,
    PromoCodeEventDataByType,
    VoucherEventDataByType,
    BulkEventDataByType,
    BroadcastEventDataByType,
    DepositAttentionEventDataByType,
    DepositClaimEventDataByType,
    TelegramEventDataByType,
    NotificationPreferencesEventDataByType {}

/**
 * Who caused an event, as it leaves Kupa: the actor's id (`USER-…`, or the all-zero one for the system) and role.
 * Names, e-mail addresses and the client's IP address stay in the activity log.
 */
export interface PublishedEventActor {
  id: string;
  role: string | null;
}

/**
 * One event as the Kafka fan-out publishes it: the value of the message, JSON (docs/events/README.md). `id`, `type`
 * and `schemaVersion` are also the message's headers; the stream id is its key. `PublishedEvent` narrows `type` and
 * `data` to one event type.
 */
export interface PublishedEventEnvelope {
  /**
   * The event's id, a UUID: unique forever, across restores and copies of Kupa's database. Consumers dedupe by it.
   * @format uuid
   */
  id: string;
  type: string;
  /** The version of `data`'s shape. Older events are lifted to the current version before they are published. */
  schemaVersion: number;
  /** `<category>-<id>`; the category names the topic. */
  streamId: string;
  /** 1 for a stream's first event, then one more for each event, without gaps. */
  streamVersion: number;
  /** When the command that appended the event ran. */
  occurredAt: IsoDateTime;
  /**
   * When the store wrote it: the time of the append by the database's clock. Not before the previous version of the
   * same stream; it may precede `occurredAt` by as much as the application's and the database's clocks disagree.
   */
  recordedAt: IsoDateTime;
  /** Shared by every event one request or job caused. */
  correlationId: string;
  /**
   * The id of the event whose processing appended this one; null when a request did. Events recorded before event ids
   * existed (docs/adr/0061) name their cause by its former position, a decimal integer.
   */
  causationId: string | null;
  actor: PublishedEventActor;
  data: unknown;
}

/**
 * One published event of a known type. The JSON Schemas in docs/events/ (`npm run build:event-schemas`) are made of
 * `PublishedEventEnvelope` and `EventDataByType`, one file per type.
 */
export interface PublishedEvent<Type extends EventType = EventType> extends PublishedEventEnvelope {
  type: Type;
  data: EventDataByType[Type];
}
