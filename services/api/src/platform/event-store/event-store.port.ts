import type { EventMetadata } from '@kupa/proto';
import type { EntityManager } from 'typeorm';

/**
 * The event store port (docs/ARCHITECTURE.md, The event store). Streams are named `<category>-<id>`; versions start at
 * 1 and have no gaps; a stream with no events has version 0.
 */
export interface EventToAppend<Data = unknown> {
  type: string;
  data: Data;
}

/**
 * `number`: the stream must be at exactly this version (0 = must not exist yet).
 * `'any'`: no check (use only for streams whose order does not matter to a decision).
 */
export type ExpectedVersion = number | 'any';

export interface StreamAppend {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: EventToAppend[];
}

export interface RecordedEvent<Data = unknown> {
  /**
   * A random UUID that names this event forever, across restores and copies of the database: what Kafka consumers
   * dedupe by and what a later event's causation id names.
   */
  eventId: string;
  /**
   * bigint as a decimal string: the order of insertion within this database, not of commit, and handed out again by a
   * restored backup. Readers of the whole store go by `commitPosition`.
   */
  globalPosition: string;
  streamId: string;
  streamVersion: number;
  type: string;
  data: Data;
  metadata: EventMetadata;
  /** When the append statement ran, by the database's clock: not before an earlier version of the same stream. */
  recordedAt: Date;
  hash: string;
  /** The schema version of `data` as handed out: after upcasting on read, the type's current version. */
  schemaVersion: number;
}

/**
 * An event read from the whole store, in commit order: its commit position is assigned when its transaction commits,
 * so an event just appended does not know it yet.
 */
export interface CommittedEvent<Data = unknown> extends RecordedEvent<Data> {
  /** bigint as a decimal string: the order in which events became visible, which readers of the whole store follow. */
  commitPosition: string;
}

export interface AppendResult {
  events: RecordedEvent[];
  /** The version of every appended stream after the append. */
  streamVersions: Record<string, number>;
}

/** Where a reader of the whole store stands: the commit position of the last event it has handled. */
export interface GlobalCheckpoint {
  commitPosition: string;
}

export interface ReadAllOptions {
  /** Read inside this transaction (a processor reads, handles and moves its checkpoint in one transaction). */
  manager?: EntityManager;
}

export const START_CHECKPOINT: GlobalCheckpoint = { commitPosition: '0' };

/** What a command sees inside `EventStore.transact`: the locked streams and the transaction's entity manager. */
export interface StreamTransaction {
  readStream(streamId: string, options?: { fromVersion?: number }): Promise<RecordedEvent[]>;
  streamVersion(streamId: string): Promise<number>;
  /** For reads of read models that a decision needs (e.g. "is this e-mail taken"), inside the same transaction. */
  readonly manager: EntityManager;
  /** The metadata every appended event will carry, resolved once the streams are locked. */
  readonly metadata: EventMetadata;
  /** The rows of `TransactOptions.readsWithLocks`, in their order, each row as a JSON object. */
  readonly rowsReadWithLocks: readonly (readonly Record<string, unknown>[])[];
  /**
   * The named streams the locking statement created. No other transaction ever held their locks (a stream row is
   * never deleted, and a writer that created one meanwhile would have made the insert wait and do nothing), so rows
   * that only holders of such a lock write are read current by `readsWithLocks`, even when that statement waited for
   * other locks after its snapshot.
   */
  readonly createdStreams: ReadonlySet<string>;
}

/**
 * Rows beside some of the named streams (a wallet's snapshot) read in the statement that locks the streams, which
 * saves the command a round trip. That statement's snapshot is taken before it waits for a lock, so a row another
 * transaction changed meanwhile is read as it was: the reader must tell by a version that it is behind the locked
 * head, and read on from the events.
 */
export interface ReadWithLocks {
  /** A SELECT of the rows of the streams named by the text[] parameter whose placeholder is `ids` (such as `$4`). */
  sql(ids: string): string;
  readonly streamIds: readonly string[];
}

/**
 * Metadata for `transact`, or a function that makes it once the streams are locked. The function form stamps
 * `occurredAt` in lock order, so that on every locked stream the recorded instants follow the booking order (a
 * running balance read "as of" an instant then agrees with the order the postings were booked in).
 */
export type TransactMetadata = EventMetadata | (() => EventMetadata);

export interface TransactOptions {
  /**
   * Streams among those named that the work only reads (the package a purchase is of). They are locked to be read,
   * in the same sorted order: commands that read one run side by side, one that appends to it waits for them and
   * they for it. An append to one of them is a bug and throws. One that does not exist reads as empty.
   */
  readonly readOnly?: readonly string[];
  /** Reads run in the locking statement; their rows are the transaction's `rowsReadWithLocks`. */
  readonly readsWithLocks?: readonly ReadWithLocks[];
  /**
   * Streams among those named whose events are read in the locking statement (a short stream without a snapshot,
   * such as the package a purchase reads): `StreamTransaction.readStream` then answers from them, reading only the
   * events that statement's snapshot missed (appended while it waited for the lock, or by this transaction).
   */
  readonly eventsReadWithLocks?: readonly string[];
}

/** What the work of `PostgresEventStore.transactBatch` sees: a stream transaction of several commands' metadata. */
export type BatchTransaction = Omit<StreamTransaction, 'metadata'>;

/** One command's append in a batch, with the metadata its events carry. */
export interface BatchAppend {
  readonly append: StreamAppend;
  readonly metadata: EventMetadata;
}

export interface TransactResult<Result> {
  appends: StreamAppend[];
  result: Result;
}

/**
 * A read model kept in the same transaction as the events it is built from, so that a command's answer is
 * readable at once. A projection that throws aborts the whole append: nothing is written.
 */
export interface InlineProjection {
  readonly name: string;
  /** Event types it reacts to; `'*'` for every event (the activity log). */
  readonly handles: readonly string[] | '*';
  /**
   * With `handles: '*'`, the types of events it makes nothing of (the activity log leaves wallet events out, since
   * their payment's entry tells the same). They never reach `apply`, and a replay does not decode them.
   */
  readonly ignores?: readonly string[];
  apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void>;
  /** Empties the read model before a rebuild from all events. */
  reset(manager: EntityManager): Promise<void>;
  /**
   * A rebuild replays every event in one transaction, batch after batch. A projection that keeps one row per
   * account or stream (a balance, a snapshot) would rewrite the same rows in every batch, and rows rewritten inside
   * one transaction pile up versions that each later update walks: quadratic in the history. Such a projection keeps
   * those rows in memory from `beginRebuild` and writes them once in `endRebuild`, before the rebuild commits;
   * `endRebuild(manager, false)` after a failed rebuild only discards them. The rows are kept per transaction
   * (`RebuildMemory`): appends in other transactions of the same process project as usual meanwhile.
   */
  beginRebuild?(manager: EntityManager): void;
  endRebuild?(manager: EntityManager, write: boolean): Promise<void>;
  /**
   * The tables `kupa ledger verify` compares with a replay of every event into empty copies of them. A projection
   * checked another way (the ledger's against its own independent replay) declares none.
   */
  readonly replayChecked?: readonly ReplayCheckedTable[];
  /**
   * The tables `reset` empties and the replay fills. A rebuild analyses them before it commits: their planner
   * statistics would otherwise describe the tables as they were before, empty after a `TRUNCATE`, until autovacuum
   * came by, and queries on a million rebuilt rows would be planned for none.
   */
  readonly tables?: readonly string[];
  /**
   * Set for a read model kept after the commit rather than in the append (docs/adr/0126): the append leaves it out,
   * and the processor of this name applies the events to it in commit order, moving its checkpoint in the same
   * transaction as the rows. A rebuild leaves that checkpoint at the last event it replayed; the replay check replays
   * only the events up to it.
   */
  readonly keptByProcessor?: string;
}

/** A read-model table compared row by row with its replay; `key` names a row in the report. */
export interface ReplayCheckedTable {
  readonly table: string;
  readonly key: readonly string[];
}

export abstract class EventStore {
  /** Appends to one or more streams atomically, checking every expected version, and runs inline projections. */
  abstract append(appends: StreamAppend[], metadata: EventMetadata): Promise<AppendResult>;

  /**
   * Locks the named streams (creating their rows first, in sorted order so that crossing commands cannot
   * deadlock), lets `work` read and decide, then appends what it returns in the same transaction. Commands on the
   * same streams wait for each other instead of failing.
   */
  abstract transact<Result>(
    streamIds: string[],
    metadata: TransactMetadata,
    work: (tx: StreamTransaction) => Promise<TransactResult<Result>>,
    options?: TransactOptions,
  ): Promise<{ result: Result; append: AppendResult }>;

  /**
   * Several commands' `transact` in one transaction (docs/adr/0130-group-commit.md): the union of their streams
   * locked in one statement, and every append of the batch, each with its own metadata, written together.
   */
  abstract transactBatch<Result>(
    streamIds: readonly string[],
    work: (tx: BatchTransaction) => Promise<{ appends: readonly BatchAppend[]; result: Result }>,
    options?: { readsWithLocks?: readonly ReadWithLocks[] },
  ): Promise<{ result: Result; append: AppendResult }>;

  abstract readStream(streamId: string, options?: { fromVersion?: number }): Promise<RecordedEvent[]>;

  abstract streamVersion(streamId: string): Promise<number>;

  /**
   * The events of whole commits after `after`, in commit order: positions become visible in order, so an event
   * committed late is never skipped, and no transaction other than an append's own commit holds the read back. As many
   * commits as hold fewer than `limit` events before them: at least `limit` events when that many wait (fewer means
   * none is left), and a commit larger than `limit` alone and whole, so that a reader going on from the last event's
   * commit position never stops inside a commit (ADR 0128).
   */
  abstract readAll(after: GlobalCheckpoint, limit: number, options?: ReadAllOptions): Promise<CommittedEvent[]>;

  /**
   * The same window as `readAll` (whole commits after `after`, in the same order), of which only the events
   * of `types` (`'*'`: every type) are decoded and returned: a reader that reacts to a few types passes the others
   * without their data. `end` is the position of the last event of the window, whatever its type (null when the
   * window is empty): where the reader's checkpoint moves to.
   */
  abstract readAllOfTypes(
    after: GlobalCheckpoint,
    limit: number,
    types: readonly string[] | '*',
    options?: ReadAllOptions,
  ): Promise<TypedWindow>;
}

/** A window of the whole store read for some types only. */
export interface TypedWindow {
  /** The window's events of the asked types, in the window's order. */
  events: CommittedEvent[];
  /** How many events the window held, of any type. */
  read: number;
  end: GlobalCheckpoint | null;
}
