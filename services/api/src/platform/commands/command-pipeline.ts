import { Injectable } from '@nestjs/common';
import type { EventMetadata } from '@kupa/proto';
import { assert, DomainError, type Evolution, fold } from '../../kernel';
import { eventMetadata, type RequestContext } from '../auth';
import { Clock } from '../clock';
import { ApiError } from '../http/api-error';
import { currentOperation } from '../observability/log-context';
import { type CommandOutcome as CommandOutcomeLabel, Metrics } from '../observability/metrics';
import { WrongExpectedVersionError } from '../event-store/errors';
import {
  EventStore,
  type EventToAppend,
  type ReadWithLocks,
  type RecordedEvent,
  type StreamAppend,
  type StreamTransaction,
} from '../event-store/event-store.port';

/**
 * Commands lock every stream they touch before reading, so a version conflict should never happen; if one does (a
 * writer that did not lock), the command is loaded and decided again from fresh state, this many times in all.
 */
export const VERSION_CONFLICT_ATTEMPTS = 3;

/** A stream's state as the command sees it under the stream's lock. */
export interface LoadedStream<State> {
  readonly streamId: string;
  readonly state: State;
  /** The version the state was folded up to: the expected version of whatever the command appends. */
  readonly version: number;
}

/**
 * How one kind of stream is read under its lock. The pipeline calls each loader once per command with all of that
 * loader's streams, so a loader can read them together (the ledger reads every wallet snapshot in one query).
 */
export interface StreamLoader<State> {
  /**
   * A SELECT of rows the loader reads beside its streams (a wallet's snapshot), over the text[] parameter `ids`: the
   * pipeline runs it in the statement that locks the streams and hands its rows to `load`, as of that statement's
   * snapshot, which may be older than the locked heads (`ReadWithLocks`).
   */
  readWithLocks?(ids: string): string;
  /**
   * The loader reads its streams' events whole (`StreamTransaction.readStream`): the pipeline has them read in the
   * statement that locks the streams (`TransactOptions.eventsReadWithLocks`), and a read of them in `load` answers
   * from there, reading only what that statement's snapshot missed.
   */
  readonly readsEventsWithLocks?: true;
  load(
    tx: StreamTransaction,
    streamIds: readonly string[],
    rowsReadWithLocks?: readonly Record<string, unknown>[],
  ): Promise<Map<string, LoadedStream<State>>>;
}

/** A stream a command names up front: its id, how to load it, and (as a type only) the events it takes. */
export interface StreamRef<State, Event extends EventToAppend> {
  readonly streamId: string;
  readonly loader: StreamLoader<State>;
  /** Never set: carries the event type, so a decision can only append the stream's own events. */
  readonly eventType?: Event;
  /**
   * The command only reads the stream: it is locked to be read, so commands that read it run side by side (every
   * purchase of one package reads that package), and one that appends to it waits for them. Such a ref takes no
   * events (`Event` is `never`).
   */
  readonly readOnly?: true;
}

/** A category of streams (`user-…`, `payment-…`) with its loader, for handlers to name streams of. */
export interface StreamKind<State, Event extends EventToAppend> {
  ref(id: string | number): StreamRef<State, Event>;
}

// The `any`s only bind the generic parameters of the record's members; each member keeps its own types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StreamRefs = Record<string, StreamRef<any, any>>;
type StateOf<Ref> = Ref extends StreamRef<infer State, EventToAppend> ? State : never;
type EventOf<Ref> = Ref extends StreamRef<unknown, infer Event> ? Event : never;

export type LoadedStreams<Refs extends StreamRefs> = {
  readonly [Name in keyof Refs]: LoadedStream<StateOf<Refs[Name]>>;
};

export interface Decision<Refs extends StreamRefs, Result> {
  /** New events per named stream; a stream left out, or given none, is not appended to. */
  events: { readonly [Name in keyof Refs]?: readonly EventOf<Refs[Name]>[] };
  result: Result;
}

/** The instant of the operation and the metadata its events carry, both fixed once the streams are locked. */
export interface CommandStamp {
  at: Date;
  metadata: EventMetadata;
}

export interface CommandPlan<Refs extends StreamRefs, Result> {
  /** Who asks, from where, under which correlation id. */
  context: RequestContext;
  /** The event that caused this command, when a processor runs it; null for a request. */
  causationId?: string | null;
  /** Every stream the command may append to, named up front: they are locked together, in sorted order. */
  streams: Refs;
  /**
   * The command may be decided and appended together with others of the process (docs/adr/0130-group-commit.md):
   * it has no `prepare`, `refused` or `alongside` work beyond its idempotency key, and names no stream to read only.
   */
  groupable?: true;
  /** Work before deciding, in the same transaction (reading who holds a login). */
  prepare?(tx: StreamTransaction, stamp: CommandStamp): Promise<void>;
  /** The decision: pure deciders over the loaded states. A `DomainError` rolls everything back. */
  decide(loaded: LoadedStreams<Refs>, stamp: CommandStamp): Decision<Refs, Result>;
  /**
   * Work in the same transaction when `decide` threw, before it rolls back: it may throw something else instead (an
   * idempotent repeat answers the first request's response rather than the refusal its own decision met).
   */
  refused?(tx: StreamTransaction, error: unknown, stamp: CommandStamp): Promise<void>;
  /**
   * Rows beside the events in the same transaction (a password hash, a consumed token, an idempotent answer), so
   * that they commit with the events that explain them or not at all.
   */
  alongside?(tx: StreamTransaction, decision: Decision<Refs, Result>, stamp: CommandStamp): Promise<void>;
}

export interface CommandOutcome<Result> {
  result: Result;
  /** The events appended, as stored (empty when the command decided nothing). */
  events: RecordedEvent[];
}

/**
 * The one way a command changes state: lock the named streams (sorted, so crossing commands queue instead of
 * deadlocking), stamp the instant and metadata under the locks (so every stream's instants follow its booking order),
 * load each stream, decide with pure functions, write side tables and append atomically in one PostgreSQL
 * transaction, and decide again from fresh state on a version conflict within `VERSION_CONFLICT_ATTEMPTS`. Every run
 * is counted by how it ended, its conflicts and retries, under the route or background loop that ran it.
 */
@Injectable()
export class CommandPipeline {
  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  async run<Refs extends StreamRefs, Result>(plan: CommandPlan<Refs, Result>): Promise<CommandOutcome<Result>> {
    const command = currentOperation();
    const startedMs = performance.now();
    let outcome: CommandOutcomeLabel = 'failed';
    try {
      const done = await this.decideAndAppend(plan, command);
      outcome = done.events.length > 0 ? 'committed' : 'unchanged';
      return done;
    } catch (error) {
      if (error instanceof DomainError || error instanceof ApiError) outcome = 'rejected';
      throw error;
    } finally {
      this.metrics.commands.inc({ command, outcome });
      this.metrics.commandDuration.observe({ command }, (performance.now() - startedMs) / 1000);
    }
  }

  private async decideAndAppend<Refs extends StreamRefs, Result>(
    plan: CommandPlan<Refs, Result>,
    command: string,
  ): Promise<CommandOutcome<Result>> {
    const names = Object.keys(plan.streams) as (keyof Refs & string)[];
    const streamIds = names.map((name) => plan.streams[name].streamId);
    if (new Set(streamIds).size !== streamIds.length) throw new Error(`A command names a stream twice: ${streamIds}`);
    const stampUnderLock = () => eventMetadata(plan.context, this.clock.now(), plan.causationId ?? null);
    const readOnly = names.filter((name) => plan.streams[name].readOnly).map((name) => plan.streams[name].streamId);
    const loaders = streamsByLoader(plan.streams);
    const readers = [...loaders].filter(([loader]) => loader.readWithLocks !== undefined);
    const readsWithLocks: ReadWithLocks[] = readers.map(([loader, ids]) => ({
      sql: (idsParameter) => loader.readWithLocks!(idsParameter),
      streamIds: ids,
    }));
    const eventsReadWithLocks = [...loaders]
      .filter(([loader]) => loader.readsEventsWithLocks)
      .flatMap(([, ids]) => ids);

    for (let attempt = 1; ; attempt += 1) {
      try {
        const { result, append } = await this.store.transact(
          streamIds,
          stampUnderLock,
          async (tx) => {
            const stamp: CommandStamp = { at: new Date(tx.metadata.occurredAt), metadata: tx.metadata };
            await plan.prepare?.(tx, stamp);
            const rowsByLoader = new Map(readers.map(([loader], index) => [loader, tx.rowsReadWithLocks[index]]));
            const loaded = await loadStreams(tx, plan.streams, loaders, rowsByLoader);
            let decision: Decision<Refs, Result>;
            try {
              decision = plan.decide(loaded, stamp);
            } catch (error) {
              // A decision is pure, so the transaction is still usable here.
              await plan.refused?.(tx, error, stamp);
              throw error;
            }
            await plan.alongside?.(tx, decision, stamp);
            const appends: StreamAppend[] = [];
            for (const name of names) {
              const events = decision.events[name];
              if (!events || events.length === 0) continue;
              assert(!plan.streams[name].readOnly, `a decision appends to ${name}, which it named to read only`);
              appends.push({
                streamId: loaded[name].streamId,
                expectedVersion: loaded[name].version,
                events: [...events],
              });
            }
            return { appends, result: decision.result };
          },
          { readOnly, readsWithLocks, eventsReadWithLocks },
        );
        return { result, events: append.events };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        this.metrics.commandConflicts.inc({ command });
        if (attempt >= VERSION_CONFLICT_ATTEMPTS) throw error;
        this.metrics.commandRetries.inc({ command });
      }
    }
  }
}

/** The named streams grouped by their loader, in the order of the plan's first stream of each loader. */
export function streamsByLoader(refs: StreamRefs): Map<StreamLoader<unknown>, string[]> {
  const byLoader = new Map<StreamLoader<unknown>, string[]>();
  for (const ref of Object.values(refs)) {
    const ids = byLoader.get(ref.loader) ?? [];
    ids.push(ref.streamId);
    byLoader.set(ref.loader, ids);
  }
  return byLoader;
}

export async function loadStreams<Refs extends StreamRefs>(
  tx: StreamTransaction,
  refs: Refs,
  byLoader: ReadonlyMap<StreamLoader<unknown>, readonly string[]>,
  rowsByLoader: ReadonlyMap<StreamLoader<unknown>, readonly Record<string, unknown>[] | undefined>,
): Promise<LoadedStreams<Refs>> {
  const states = new Map<string, LoadedStream<unknown>>();
  for (const [loader, ids] of byLoader) {
    for (const [streamId, stream] of await loader.load(tx, ids, rowsByLoader.get(loader))) {
      states.set(streamId, stream);
    }
  }
  const loaded: Record<string, LoadedStream<unknown>> = {};
  for (const [name, ref] of Object.entries(refs)) {
    const stream = states.get(ref.streamId);
    if (!stream) throw new Error(`Loader did not load stream ${ref.streamId}`);
    loaded[name] = stream;
  }
  return loaded as LoadedStreams<Refs>;
}

/** A kind of folded stream, whose state may also be read without its lock. */
export interface FoldedStreamKind<State, Event extends EventToAppend> extends StreamKind<State, Event> {
  /** The stream named to be read only: locked so that no command appends to it meanwhile, but not against readers. */
  lockedForReading(id: string | number): StreamRef<State, never>;
  /**
   * The state as stored now, read without the stream's lock: for a quote or an early refusal, which the command that
   * follows decides again under the lock.
   */
  currentState(store: EventStore, id: string | number): Promise<State>;
}

export interface FoldedStreamOptions {
  /**
   * Read the events in the statement that locks the streams (`StreamLoader.readsEventsWithLocks`): for a kind whose
   * streams mostly exist and are rarely contended (a package every purchase reads), which saves a round trip.
   */
  readonly readsEventsWithLocks?: true;
}

/**
 * Streams whose state is the fold of all their events (a user, a payment: a handful of events each). A stream
 * that does not exist yet is not read at all.
 */
export function foldedStreamKind<State, Event extends EventToAppend>(
  evolution: Evolution<State, Event>,
  streamIdOf: (id: string | number) => string,
  options: FoldedStreamOptions = {},
): FoldedStreamKind<State, Event> {
  const foldHistory = (history: readonly RecordedEvent[]) =>
    fold(
      evolution,
      history.map((recorded) => ({ type: recorded.type, data: recorded.data }) as Event),
    );
  const loader: StreamLoader<State> = {
    ...(options.readsEventsWithLocks ? { readsEventsWithLocks: true } : {}),
    async load(tx, streamIds) {
      const loaded = new Map<string, LoadedStream<State>>();
      for (const streamId of streamIds) {
        const head = await tx.streamVersion(streamId);
        const history = head === 0 ? [] : await tx.readStream(streamId);
        loaded.set(streamId, { streamId, state: foldHistory(history), version: head });
      }
      return loaded;
    },
  };
  return {
    ref: (id) => ({ streamId: streamIdOf(id), loader }),
    lockedForReading: (id) => ({ streamId: streamIdOf(id), loader, readOnly: true }),
    currentState: async (store, id) => foldHistory(await store.readStream(streamIdOf(id))),
  };
}
