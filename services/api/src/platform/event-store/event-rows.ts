import type { EventMetadata } from '@kupa/proto';
import type { CommittedEvent, RecordedEvent } from './event-store.port';
import { FIRST_SCHEMA_VERSION, type EventTypeRegistry } from './event-type-registry';

/** The key under which the store keeps an event's schema version inside its metadata, covered by the hash. */
export const SCHEMA_VERSION_KEY = 'schemaVersion';

/**
 * The commits after `after` (exclusive; and at or before `upTo` when given), whole, in commit order: as many as hold
 * fewer than `limit` events before them, so at least `limit` events when that many wait, and always at least one
 * commit, whatever its size (docs/adr/0128-one-commit-row-per-transaction.md). A reader that goes on from the last
 * commit position it read therefore never stops inside a commit. Arguments are SQL expressions (parameters).
 * Each event's row joins as `events`: between the commit's first and last position, with its transaction id (another
 * transaction's appends may have taken positions in between), read per commit by a range scan of the primary key.
 * `OFFSET 0` keeps the planner from flattening that into a join: it cannot estimate a range between two columns of
 * the other side, and chose a hash join over a scan of every event. Order the result by
 * `window_commits.commit_position, events.global_position`: within a commit, events come in the order of their
 * positions, which is the order they were inserted in.
 */
export function commitWindow(after: string, limit: string, upTo?: string): string {
  return `(SELECT counted.commit_position, counted.transaction_id, counted.first_position, counted.last_position
             FROM (SELECT c.commit_position, c.transaction_id, c.first_position, c.last_position,
                          sum(c.event_count) OVER (ORDER BY c.commit_position) - c.event_count AS events_before
                     FROM event_commits c
                    WHERE c.commit_position > ${after}${upTo === undefined ? '' : ` AND c.commit_position <= ${upTo}`}
                    ORDER BY c.commit_position LIMIT ${limit}) AS counted
            WHERE counted.events_before < ${limit}) AS window_commits
    CROSS JOIN LATERAL (SELECT * FROM events WHERE ${COMMIT_HOLDS_EVENT('window_commits')} OFFSET 0) AS events`;
}

/** Whether commit row `commit` holds the row of `events` (ADR 0128): in its range and written by its transaction. */
export const COMMIT_HOLDS_EVENT = (commit: string): string =>
  `events.global_position BETWEEN ${commit}.first_position AND ${commit}.last_position
   AND events.transaction_id = ${commit}.transaction_id`;

/**
 * The commit that numbered the row of `events` (one row, or none for an event no commit numbered), for a
 * `LEFT JOIN LATERAL … ON true`: found by the transaction id's index, then by the range.
 */
export const COMMIT_OF_EVENT = `(SELECT event_commit.commit_position FROM event_commits event_commit
    WHERE event_commit.transaction_id = events.transaction_id
      AND events.global_position BETWEEN event_commit.first_position AND event_commit.last_position) AS event_commit`;

/** The select list every event read uses; bigint comes back as a decimal string, never as a lossy number. */
export const EVENT_COLUMNS = `events.event_id::text AS event_id, events.global_position::text AS global_position,
  events.stream_id, events.stream_version, events.type, events.data, events.metadata, events.recorded_at, events.hash`;

/**
 * The select list of a read that decodes only some types' events, over a subquery that marks them `wanted`: the
 * others come back with their positions and type alone, so that the read still moves past them while
 * PostgreSQL skips turning their data, metadata, hash and time of recording into text and the driver skips decoding
 * them.
 */
export const WANTED_EVENT_COLUMNS = `global_position::text AS global_position, type, wanted,
  CASE WHEN wanted THEN event_id::text END AS event_id,
  CASE WHEN wanted THEN stream_id END AS stream_id,
  CASE WHEN wanted THEN stream_version END AS stream_version,
  CASE WHEN wanted THEN data END AS data,
  CASE WHEN wanted THEN metadata END AS metadata,
  CASE WHEN wanted THEN recorded_at END AS recorded_at,
  CASE WHEN wanted THEN hash END AS hash`;

/** A row read with `WANTED_EVENT_COLUMNS`; only a wanted one carries the event's stream, data and the rest. */
export type WantedEventRow = EventRow & { wanted: boolean };

/**
 * The select list of a replay that needs only what events say: no hash, event id or time of recording to
 * decode (the time of recording alone costs a date parse per row).
 */
export const REPLAYED_EVENT_COLUMNS = `global_position::text AS global_position, stream_id, stream_version, type, data,
  metadata`;

export type ReplayedEventRow = Pick<
  EventRow,
  'global_position' | 'stream_id' | 'stream_version' | 'type' | 'data' | 'metadata'
>;

export interface EventRow {
  event_id: string;
  global_position: string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  hash: string;
}

/** The metadata as stored: the command's metadata plus the schema version of this event's data. */
export function storedMetadata(metadata: EventMetadata, schemaVersion: number): Record<string, unknown> {
  return { ...metadata, [SCHEMA_VERSION_KEY]: schemaVersion };
}

/** A stored row as readers see it: upcast to the type's current schema, the schema version lifted out of metadata. */
export function toRecordedEvent(row: EventRow, eventTypes: EventTypeRegistry): RecordedEvent {
  const { data, metadata, storedVersion } = upcastRow(row, eventTypes);
  return {
    eventId: row.event_id,
    globalPosition: row.global_position,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data,
    metadata,
    recordedAt: row.recorded_at,
    hash: row.hash,
    schemaVersion: Math.max(storedVersion, eventTypes.schemaVersion(row.type)),
  };
}

/** A row read in commit order: the event and its commit position. */
export function toCommittedEvent(
  row: EventRow & { commit_position: string },
  eventTypes: EventTypeRegistry,
): CommittedEvent {
  return { ...toRecordedEvent(row, eventTypes), commitPosition: row.commit_position };
}

/** A stored event's data upcast to its type's current schema, and its metadata without the schema version. */
export function upcastRow(
  row: Pick<EventRow, 'type' | 'data' | 'metadata'>,
  eventTypes: EventTypeRegistry,
): { data: unknown; metadata: EventMetadata; storedVersion: number } {
  const { [SCHEMA_VERSION_KEY]: stored, ...metadata } = row.metadata;
  const storedVersion = typeof stored === 'number' ? stored : FIRST_SCHEMA_VERSION;
  const data = eventTypes.upcast(row.type, storedVersion, row.data);
  return { data, metadata: metadata as unknown as EventMetadata, storedVersion };
}

/** Stream ids sort byte-wise (UTF-8), the order of the "C" collation the tables use: one order everywhere. */
export function compareStreamIds(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}

/** The PostgreSQL SQLSTATE of a failed query, whether pg's error or TypeORM's wrapper of it. */
export function postgresErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const wrapped = (error as { driverError?: { code?: unknown } }).driverError;
  const code = wrapped?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
