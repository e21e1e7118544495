import type { AuditOperationType, AuditTargetType } from '@kupa/proto';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import type { AuditEntryDraft } from '../../audit-mapper';

/** Stream categories (streams are named `<category>-<id>`) and the target their events are about. */
const TARGET_TYPE_BY_CATEGORY: Readonly<Record<string, AuditTargetType>> = Object.freeze({
  user: 'CLIENT',
  wallet: 'CLIENT',
  payment: 'PAYMENT',
  subscription: 'SUBSCRIPTION',
  plan: 'PACKAGE',
});

/** Payload fields that name a target, tried in this order when the stream category says nothing. */
const TARGET_ID_FIELDS: ReadonlyArray<readonly [string, AuditTargetType]> = Object.freeze([
  ['paymentId', 'PAYMENT'],
  ['subscriptionId', 'SUBSCRIPTION'],
  ['planId', 'PACKAGE'],
  ['userUuid', 'CLIENT'],
] as const);

/**
 * An event from a stream nobody can classify is still logged; filed under CLIENT with its whole stream id, it stays
 * findable through the ids filter, and CLIENT is the type staff browse first.
 */
const FALLBACK_TARGET_TYPE: AuditTargetType = 'CLIENT';

/** Names that may hold a credential or a digest of one; such values never reach the log. */
const SECRET_FIELD_NAME = /password|passwd|hash|token|secret/i;

const DELETION_EVENT_TYPE = /(Deleted|Removed)$/;

function splitStreamId(streamId: string): { category: string; id: string } {
  const dash = streamId.indexOf('-');
  return dash < 0
    ? { category: streamId, id: streamId }
    : { category: streamId.slice(0, dash), id: streamId.slice(dash + 1) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Drops secret-looking fields at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!SECRET_FIELD_NAME.test(key)) result[key] = withoutSecrets(item);
  }
  return result;
}

function idValue(value: unknown): string | null {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function operationTypeOf(event: RecordedEvent): AuditOperationType {
  if (DELETION_EVENT_TYPE.test(event.type)) return 'DELETED';
  return event.streamVersion === 1 ? 'CREATED' : 'UPDATED';
}

/**
 * How an event without a registered mapper reads in the log: its target from the stream category (else from an id
 * in its payload), the user it concerns as the parent, and its payload, minus secrets, as the fields.
 */
export function describeUnmappedEvent(event: RecordedEvent): AuditEntryDraft {
  const data = isRecord(event.data) ? event.data : { value: event.data };
  const stream = splitStreamId(event.streamId);
  let targetType = TARGET_TYPE_BY_CATEGORY[stream.category];
  let targetId = stream.id;
  if (!targetType) {
    const hint = TARGET_ID_FIELDS.find(([field]) => idValue(data[field]) !== null);
    targetType = hint ? hint[1] : FALLBACK_TARGET_TYPE;
    targetId = hint ? (idValue(data[hint[0]]) as string) : event.streamId;
  }
  const userUuid = idValue(data.userUuid);
  const concernsAnotherUser = userUuid !== null && !(targetType === 'CLIENT' && targetId === userUuid);
  return {
    targetType,
    targetId,
    parent: concernsAnotherUser ? { type: 'CLIENT', id: userUuid } : null,
    operationType: operationTypeOf(event),
    fields: withoutSecrets(data) as Record<string, unknown>,
  };
}
