import type { DataSource } from 'typeorm';
import { types as pgTypes } from 'pg';
import { commitWindow, SCHEMA_VERSION_KEY, toCommittedEvent, type EventRow } from '../event-store/event-rows';
import type { EventTypeRegistry } from '../event-store/event-type-registry';
import { FIRST_SCHEMA_VERSION } from '../event-store/event-type-registry';
import { KAFKA_HEADERS, toKafkaMessage, type KafkaMessage } from './published-event';

/**
 * One step of `kupa events republish` read as messages (docs/adr/0131). The live publisher's message is
 * `JSON.stringify` of an envelope around the event as the `pg` driver decodes it (`JSON.parse` of the jsonb's text,
 * the time of recording as a Date). Decoding every event's data and metadata and encoding them again was a third of
 * the republish's main thread: here PostgreSQL hands over the jsonb values as text, and an event whose type needs no
 * upcast gets its message put together from those texts, with the spaces of jsonb's output taken out. That is the
 * same bytes exactly when `JSON.parse` followed by `JSON.stringify` would give the text back without its spaces,
 * which `compactJsonText` checks as it goes; where it cannot tell (a number `JSON.stringify` writes otherwise, an
 * object key that JavaScript would move to the front), and for every event to upcast, the event is decoded and made
 * into its message as the live publisher does. `republish-reader.int-spec.ts` compares both with the publisher's.
 */

/**
 * The columns of a step: what a message made from texts takes, the pieces of metadata as jsonb text. What only a
 * decoded event needs (its whole metadata, time of recording, hash, global position) is read again for those
 * events alone (`DECODED_SQL`): most events never need it, and its text was most of what `pg` turned into strings.
 */
const STEP_SQL = `
  SELECT window_commits.commit_position::text AS commit_position, events.global_position::text AS global_position,
         events.event_id::text AS event_id,
         events.stream_id, events.stream_version::text AS stream_version, events.type, events.data::text AS data,
         (events.metadata -> '${SCHEMA_VERSION_KEY}')::text AS stored_version,
         (events.metadata -> 'occurredAt')::text AS occurred_at,
         (events.metadata -> 'correlationId')::text AS correlation_id,
         (events.metadata -> 'causationId')::text AS causation_id,
         jsonb_typeof(events.metadata -> 'actor') AS actor_type,
         (events.metadata -> 'actor' -> 'id')::text AS actor_id,
         (events.metadata -> 'actor' -> 'role')::text AS actor_role,
         CASE WHEN extract(year FROM events.recorded_at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999
              THEN to_char(events.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END AS recorded_at_iso
    FROM ${commitWindow('$1::bigint', '$2::int')}
   ORDER BY window_commits.commit_position, events.global_position`;

/** The rest of the events of a step to decode, by global position (a commit may hold several events). */
const DECODED_SQL = `
  SELECT events.global_position::text AS global_position, events.metadata::text AS metadata,
         events.recorded_at::text AS recorded_at, events.hash
    FROM events
   WHERE events.global_position = ANY($1::bigint[])`;

interface DecodedRest {
  global_position: string;
  metadata: string;
  recorded_at: string;
  hash: string;
}

interface StepRow {
  commit_position: string;
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_version: string;
  type: string;
  data: string;
  stored_version: string | null;
  occurred_at: string | null;
  correlation_id: string | null;
  causation_id: string | null;
  actor_type: string | null;
  actor_id: string | null;
  actor_role: string | null;
  recorded_at_iso: string | null;
}

/** The parser `pg` applies to a timestamptz, so that a decoded event's time of recording is the live publisher's. */
const parseTimestamptz = pgTypes.getTypeParser(pgTypes.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

/** A number `JSON.parse` then `JSON.stringify` give back as it is: plain integers of up to 15 digits, or checked. */
function isRoundTripNumber(text: string): boolean {
  const digits = text.charCodeAt(0) === 0x2d ? text.length - 1 : text.length;
  if (digits > 0 && digits <= 15 && /^-?[1-9][0-9]*$|^0$/.test(text)) return true;
  return String(Number(text)) === text;
}

/**
 * The text of a jsonb value (PostgreSQL's output: `{"a": 1, "b": [2, 3]}`) as `JSON.stringify(JSON.parse(text))`
 * writes it, or null where that could differ: a number JavaScript writes otherwise (`1.50`, `1e21`,
 * `0.0000001`, more digits than a double keeps), or an object key that starts with a digit (JavaScript puts keys
 * such as `"10"` before the others, where jsonb sorts them by length). Strings are copied: jsonb escapes `"`, `\`
 * and the control characters as `JSON.stringify` does, and holds no lone surrogates. jsonb keeps no duplicate keys.
 */
export function compactJsonText(text: string): string | null {
  let compact = '';
  let copiedTo = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // A string: its end is the next quote with an even number of backslashes before it.
      let end = index + 1;
      for (;;) {
        end = text.indexOf('"', end);
        if (end < 0) return null;
        let backslash = end - 1;
        while (text.charCodeAt(backslash) === 0x5c) backslash -= 1;
        if ((end - 1 - backslash) % 2 === 0) break;
        end += 1;
      }
      let next = end + 1;
      while (text.charCodeAt(next) === 0x20) next += 1;
      const first = text.charCodeAt(index + 1);
      if (text.charCodeAt(next) === 0x3a && first >= 0x30 && first <= 0x39) return null;
      index = end + 1;
    } else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      compact += text.slice(copiedTo, index);
      index += 1;
      copiedTo = index;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let end = index + 1;
      for (; end < length; end += 1) {
        const next = text.charCodeAt(end);
        if (!(
          (next >= 0x30 && next <= 0x39) ||
          next === 0x2e ||
          next === 0x65 ||
          next === 0x45 ||
          next === 0x2b ||
          next === 0x2d
        ))
          break;
      }
      if (!isRoundTripNumber(text.slice(index, end))) return null;
      index = end;
    } else index += 1;
  }
  return copiedTo === 0 ? text : compact + text.slice(copiedTo);
}

/** A JSON string's value: what the header of a string field carries. */
function stringValue(json: string): string {
  return json.includes('\\') ? (JSON.parse(json) as string) : json.slice(1, -1);
}

/**
 * The message of a row whose type needs no upcast, put together from its texts as `toKafkaMessage` would make it, or
 * null where its texts could give other bytes (then it is decoded and made as the live publisher makes it).
 */
function messageOfTexts(
  row: StepRow,
  schemaVersion: number,
  extraHeaders: Readonly<Record<string, string>>,
): KafkaMessage | null {
  const { correlation_id: correlation, actor_type: actorType, recorded_at_iso: recordedAt } = row;
  // The header needs a string; an actor that is not an object, or no ISO time, is left to the usual path.
  if (correlation === null || correlation.charCodeAt(0) !== 0x22 || actorType !== 'object' || recordedAt === null)
    return null;
  const data = compactJsonText(row.data);
  if (data === null) return null;
  // JSON.stringify leaves out a property whose value is undefined: a key the metadata does not have.
  let value = `{"id":"${row.event_id}","type":${JSON.stringify(row.type)},"schemaVersion":${schemaVersion},"streamId":${JSON.stringify(row.stream_id)},"streamVersion":${row.stream_version}`;
  for (const [name, json] of [['occurredAt', row.occurred_at] as const]) {
    if (json === null) continue;
    const compact = compactJsonText(json);
    if (compact === null) return null;
    value += `,"${name}":${compact}`;
  }
  value += `,"recordedAt":"${recordedAt}"`;
  const causation = row.causation_id === null ? null : compactJsonText(row.causation_id);
  if (row.causation_id !== null && causation === null) return null;
  const correlationCompact = compactJsonText(correlation);
  if (correlationCompact === null) return null;
  value += `,"correlationId":${correlationCompact}`;
  if (causation !== null) value += `,"causationId":${causation}`;
  const actor: string[] = [];
  for (const [name, json] of [
    ['id', row.actor_id],
    ['role', row.actor_role],
  ] as const) {
    if (json === null) continue;
    const compact = compactJsonText(json);
    if (compact === null) return null;
    actor.push(`"${name}":${compact}`);
  }
  value += `,"actor":{${actor.join(',')}},"data":${data}}`;
  return {
    key: row.stream_id,
    value,
    headers: {
      [KAFKA_HEADERS.eventId]: row.event_id,
      [KAFKA_HEADERS.eventType]: row.type,
      [KAFKA_HEADERS.schemaVersion]: String(schemaVersion),
      [KAFKA_HEADERS.streamVersion]: row.stream_version,
      [KAFKA_HEADERS.correlationId]: stringValue(correlation),
      [KAFKA_HEADERS.contentType]: 'application/json',
      ...extraHeaders,
    },
  };
}

/** The stored schema version as `upcastRow` reads it: a number, or the first version when it is not one. */
function storedVersionOf(json: string | null): number {
  if (json === null) return FIRST_SCHEMA_VERSION;
  const first = json.charCodeAt(0);
  return first === 0x2d || (first >= 0x30 && first <= 0x39) ? Number(json) : FIRST_SCHEMA_VERSION;
}

/** The row decoded as the `pg` driver decodes the live publisher's read, then made into its message the same way. */
function messageOfDecoded(
  row: StepRow,
  rest: DecodedRest,
  eventTypes: EventTypeRegistry,
  extraHeaders: Readonly<Record<string, string>>,
): KafkaMessage {
  const decoded: EventRow & { commit_position: string } = {
    commit_position: row.commit_position,
    event_id: row.event_id,
    global_position: rest.global_position,
    stream_id: row.stream_id,
    stream_version: Number(row.stream_version),
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(rest.metadata) as Record<string, unknown>,
    recorded_at: parseTimestamptz(rest.recorded_at),
    hash: rest.hash,
  };
  return toKafkaMessage(toCommittedEvent(decoded, eventTypes), extraHeaders);
}

export interface RepublishStep {
  /** Each event's message, in commit order, with the stream id (its key) naming its topic. */
  messages: KafkaMessage[];
  /** The commit position of the step's last event. */
  last: string;
  /** How many of the messages were put together from PostgreSQL's texts; the others were decoded. */
  madeFromTexts: number;
}

/**
 * The whole commits after `after` and up to `end` (inclusive) with fewer than `limit` events before each (ADR 0128),
 * in commit order, as messages with `extraHeaders` after the usual ones; null when there are none. Commit positions
 * become visible in order (docs/adr/0061), as for `EventStore.readAll`, whose window this is.
 */
export async function readRepublishStep(
  dataSource: DataSource,
  eventTypes: EventTypeRegistry,
  window: { after: string; end: string; limit: number },
  extraHeaders: Readonly<Record<string, string>>,
): Promise<RepublishStep | null> {
  if (BigInt(window.after) >= BigInt(window.end)) return null;
  // The end is applied here, not in the statement: with both bounds PostgreSQL may sort the whole range for each step
  // rather than walk the commit order's index for `limit` rows (500 µs an event at 200,000 events).
  const end = BigInt(window.end);
  const read: StepRow[] = await dataSource.query(STEP_SQL, [window.after, window.limit]);
  let count = read.length;
  while (count > 0 && BigInt(read[count - 1].commit_position) > end) count -= 1;
  const rows = count === read.length ? read : read.slice(0, count);
  if (rows.length === 0) return null;
  const messages = new Array<KafkaMessage>(rows.length);
  const toDecode: number[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index];
    const schemaVersion = eventTypes.schemaVersion(row.type);
    // Stored at the type's current version: nothing to upcast, and the message can be made from the texts.
    const fromTexts =
      storedVersionOf(row.stored_version) === schemaVersion ? messageOfTexts(row, schemaVersion, extraHeaders) : null;
    if (fromTexts) messages[index] = fromTexts;
    else toDecode.push(index);
  }
  if (toDecode.length > 0) {
    const rests: DecodedRest[] = await dataSource.query(DECODED_SQL, [
      toDecode.map((index) => rows[index].global_position),
    ]);
    const byPosition = new Map(rests.map((rest) => [rest.global_position, rest]));
    for (const index of toDecode) {
      const rest = byPosition.get(rows[index].global_position);
      if (!rest)
        throw new Error(`Event at global position ${rows[index].global_position} vanished during the republish`);
      messages[index] = messageOfDecoded(rows[index], rest, eventTypes, extraHeaders);
    }
  }
  const madeFromTexts = rows.length - toDecode.length;
  return { messages, last: rows[rows.length - 1].commit_position, madeFromTexts };
}
