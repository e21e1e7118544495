import type { PublishedEventEnvelope } from '@kupa/proto';
import type { RecordedEvent } from '../event-store/event-store.port';

/**
 * The headers of every published message (docs/events/README.md). A consumer can route, dedupe and choose a schema
 * by them without parsing the value.
 */
export const KAFKA_HEADERS = Object.freeze({
  eventId: 'event-id',
  eventType: 'event-type',
  schemaVersion: 'schema-version',
  streamVersion: 'stream-version',
  correlationId: 'correlation-id',
  contentType: 'content-type',
  /** Only on a message `kupa events republish` sent (docs/adr/0116): the replay's topic prefix. Live ones lack it. */
  replay: 'replay',
});

export interface KafkaMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Set by the republish, which picks each message's producer by it (docs/adr/0124); otherwise kafkajs's murmur2. */
  partition?: number;
}

export interface TopicMessages {
  topic: string;
  messages: KafkaMessage[];
}

/** The category of a stream `<category>-<id>`: what names its topic. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

/** `kupa.` + `wallet` → `kupa.wallet`; a character Kafka refuses in a topic name becomes `_`. */
export function topicOf(topicPrefix: string, streamId: string): string {
  return `${topicPrefix}${streamCategory(streamId).replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/**
 * An event as it leaves Kupa: proto's `PublishedEventEnvelope`, whose JSON Schemas are in docs/events/. The id is
 * the event's UUID, unique forever (docs/adr/0061), which the causation id of a later event also names. Of the actor only the id and role go
 * out: names, e-mail addresses and IP addresses stay in the activity log.
 */
export function toPublishedEvent(event: RecordedEvent): PublishedEventEnvelope {
  return {
    id: event.eventId,
    type: event.type,
    schemaVersion: event.schemaVersion,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    occurredAt: event.metadata.occurredAt,
    recordedAt: event.recordedAt.toISOString(),
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    actor: { id: event.metadata.actor.id, role: event.metadata.actor.role },
    data: event.data,
  };
}

/** `extraHeaders` go after the usual ones: the republish's `replay` marker (docs/adr/0116). */
export function toKafkaMessage(event: RecordedEvent, extraHeaders?: Readonly<Record<string, string>>): KafkaMessage {
  return {
    // The stream id as the key: every event of a stream lands on one partition, in the stream's order.
    key: event.streamId,
    value: JSON.stringify(toPublishedEvent(event)),
    headers: {
      [KAFKA_HEADERS.eventId]: event.eventId,
      [KAFKA_HEADERS.eventType]: event.type,
      [KAFKA_HEADERS.schemaVersion]: String(event.schemaVersion),
      [KAFKA_HEADERS.streamVersion]: String(event.streamVersion),
      [KAFKA_HEADERS.correlationId]: event.metadata.correlationId,
      [KAFKA_HEADERS.contentType]: 'application/json',
      ...extraHeaders,
    },
  };
}

/** A batch of events as one send: a list per topic, each in the batch's (the store's) order. */
export function toTopicMessages(topicPrefix: string, events: readonly RecordedEvent[]): TopicMessages[] {
  const byTopic = new Map<string, KafkaMessage[]>();
  for (const event of events) {
    const topic = topicOf(topicPrefix, event.streamId);
    const messages = byTopic.get(topic) ?? [];
    messages.push(toKafkaMessage(event));
    byTopic.set(topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
