import type { EntityManager } from 'typeorm';
import { assert, DomainError } from '../../kernel';
import { eventMetadata } from '../auth';
import { Clock } from '../clock';
import { noteCommitInRequest } from '../database/read-replica';
import { ApiError } from '../http/api-error';
import { currentLogContext, currentOperation, type LogContext, withLogContext } from '../observability/log-context';
import type { CommandOutcome as CommandOutcomeLabel } from '../observability/metrics';
import { Metrics } from '../observability/metrics';
import {
  type BatchAppend,
  EventStore,
  type ReadWithLocks,
  type StreamAppend,
  type StreamTransaction,
} from '../event-store/event-store.port';
import {
  type CommandPlan,
  type CommandStamp,
  type Decision,
  loadStreams,
  type StreamLoader,
  streamsByLoader,
} from './command-pipeline';

/** Batches of one process in their transactions at once: a new one forms when one commits (ADR 0130). */
export const BATCHES_IN_FLIGHT = 2;
/** The most commands one batch holds. */
export const BATCH_MAX_COMMANDS = 16;

/** How batches are formed, from `COMMAND_GROUPING` (on by default, ADR 0138; off: every command runs alone). */
export interface CommandGrouping {
  enabled: boolean;
}

/** A command's idempotency key, as the batch claims it (`IdempotencyKeys` is what stores it). */
export interface BatchKey {
  readonly actorUuid: string;
  readonly key: string;
  readonly requestHash: string;
}

/** The statements a batch runs on the keys of its commands, one each for the whole batch. */
export interface BatchKeys {
  /**
   * Inserts every key at once, each with its answer (201) or, for a refused command, with none; waits, as
   * `ON CONFLICT` does, for another transaction holding one. Answers the indexes of the keys inserted.
   */
  claimAll(
    manager: EntityManager,
    claims: readonly { request: BatchKey; response: unknown; refused: boolean; at: Date }[],
  ): Promise<Set<number>>;
  /** The key is held by a committed first attempt: throws its answer as a replay, or the reuse refusal. */
  replay(manager: EntityManager, request: BatchKey): Promise<never>;
  /** Deletes keys this transaction inserted for refused commands, so that a retry goes ahead. */
  forgetAll(manager: EntityManager, requests: readonly BatchKey[]): Promise<void>;
}

/** A command that may join a batch: its plan, its key, and today's path, for a batch of one or after a failure. */
export interface GroupedCommand<Result> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the plan's stream record keeps its own types
  plan: CommandPlan<Record<string, any>, Result>;
  key: BatchKey | null;
  keys: BatchKeys;
  alone(): Promise<Result>;
}

type Settled = { ok: true; value: unknown; events: number } | { ok: false; error: unknown };

interface Member {
  command: GroupedCommand<unknown>;
  /** The streams it writes, and its key, as the batch formation tells them apart. */
  holds: string[];
  context: LogContext | undefined;
  enqueuedMs: number;
  resolve(settled: Settled & { merged: boolean }): void;
}

/** A context for the batch's own transaction: no one request's, so that no request is marked by the others' commit. */
const BATCH_CONTEXT: LogContext = { operation: 'command batch' };

/**
 * Group commit (docs/adr/0130-group-commit.md): a per-process queue of groupable commands. While fewer than
 * `BATCHES_IN_FLIGHT` batches are in their transactions, the queue is flushed at once (no timer) into a batch of up
 * to `BATCH_MAX_COMMANDS`, in arrival order, holding back a command whose stream or key an earlier member, or a
 * batch in flight, already has (and every later one on its streams), so that each stream's commands commit in
 * arrival order. A batch of one runs today's path. A larger one locks the union of its streams, decides every
 * member against its own locked state, claims the keys, and appends in one transaction; a refusal leaves only its
 * command. A failure after the writes began rolls the batch back and runs each member alone.
 */
export class CommandBatches {
  private readonly queue: Member[] = [];
  private inFlight = 0;
  private readonly busy = new Set<string>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    readonly grouping: CommandGrouping,
  ) {}

  get enabled(): boolean {
    return this.grouping.enabled;
  }

  /** Commands waiting for a batch (for specs that arrange one). */
  get queued(): number {
    return this.queue.length;
  }

  /** Runs the command in a batch; answers its result, or throws its own error. */
  async run<Result>(command: GroupedCommand<Result>): Promise<Result> {
    const name = currentOperation();
    const startedMs = performance.now();
    const settled = await new Promise<Settled & { merged: boolean }>((resolve) => {
      const streams = Object.values(command.plan.streams).map((ref) => ref.streamId as string);
      const holds = command.key ? [...streams, `key ${command.key.actorUuid} ${command.key.key}`] : streams;
      this.queue.push({
        command: command as GroupedCommand<unknown>,
        holds,
        context: currentLogContext(),
        enqueuedMs: startedMs,
        resolve,
      });
      this.flush();
    });
    // Today's path counted itself; a merged member is counted here, in its own request's context.
    if (settled.merged) {
      let outcome: CommandOutcomeLabel = 'failed';
      if (settled.ok) outcome = settled.events > 0 ? 'committed' : 'unchanged';
      else if (settled.error instanceof DomainError || settled.error instanceof ApiError) outcome = 'rejected';
      this.metrics.commands.inc({ command: name, outcome });
      this.metrics.commandDuration.observe({ command: name }, (performance.now() - startedMs) / 1000);
      if (settled.ok && settled.events > 0) noteCommitInRequest();
    }
    if (!settled.ok) throw settled.error;
    return settled.value as Result;
  }

  private flush(): void {
    while (this.inFlight < BATCHES_IN_FLIGHT && this.queue.length > 0) {
      const batch: Member[] = [];
      const held: Member[] = [];
      const taken = new Set(this.busy);
      for (const member of this.queue) {
        if (batch.length >= BATCH_MAX_COMMANDS || member.holds.some((id) => taken.has(id))) held.push(member);
        else batch.push(member);
        // A command held back holds its streams too: the later ones on them wait behind it.
        for (const id of member.holds) taken.add(id);
      }
      if (batch.length === 0) return;
      this.queue.splice(0, this.queue.length, ...held);
      this.start(batch);
    }
  }

  private start(batch: Member[]): void {
    const holds = batch.flatMap((member) => member.holds);
    for (const id of holds) this.busy.add(id);
    this.inFlight += 1;
    const nowMs = performance.now();
    this.metrics.commandBatchSize.observe(batch.length);
    for (const member of batch) {
      this.metrics.commandQueueWait.observe((nowMs - member.enqueuedMs) / 1000);
    }
    void this.runBatch(batch).finally(() => {
      for (const id of holds) this.busy.delete(id);
      this.inFlight -= 1;
      this.flush();
    });
  }

  private async runBatch(batch: Member[]): Promise<void> {
    if (batch.length > 1) {
      let settled: Settled[] | null = null;
      try {
        settled = await withLogContext(BATCH_CONTEXT, () => this.runMerged(batch));
      } catch {
        // A failure the batch could not place on one member (SQL, a projection, a version conflict): nothing of
        // it was written, and each member runs again alone, so that only the one it belongs to fails.
        this.metrics.commandBatchFallbacks.inc();
      }
      if (settled !== null) {
        for (const [index, member] of batch.entries()) member.resolve({ ...settled[index], merged: true });
        return;
      }
    }
    await Promise.all(batch.map((member) => this.runAlone(member)));
  }

  private async runAlone(member: Member): Promise<void> {
    try {
      const value = await withLogContext(member.context ?? {}, () => member.command.alone());
      member.resolve({ ok: true, value, events: 0, merged: false });
    } catch (error) {
      member.resolve({ ok: false, error, merged: false });
    }
  }

  private async runMerged(batch: Member[]): Promise<Settled[]> {
    const refs = batch.flatMap((member) => Object.values(member.command.plan.streams));
    assert(
      refs.every((ref) => !ref.readOnly),
      'a groupable command names no stream to read only',
    );
    const loaders = streamsByLoader(Object.fromEntries(refs.map((ref, index) => [String(index), ref])));
    const readers = [...loaders].filter(([loader]) => loader.readWithLocks !== undefined);
    const readsWithLocks: ReadWithLocks[] = readers.map(([loader, ids]) => ({
      sql: (idsParameter) => loader.readWithLocks!(idsParameter),
      streamIds: ids,
    }));
    const { result } = await this.store.transactBatch(
      refs.map((ref) => ref.streamId),
      async (batchTx) => {
        // Loaders read no metadata: each command's own is in its stamp.
        const tx = batchTx as StreamTransaction;
        const rowsByLoader = new Map<StreamLoader<unknown>, readonly Record<string, unknown>[] | undefined>(
          readers.map(([loader], index) => [loader, tx.rowsReadWithLocks[index]]),
        );
        // Stamped under the locks, in the batch's (arrival) order.
        const stamps: CommandStamp[] = batch.map(({ command }) => {
          const metadata = eventMetadata(command.plan.context, this.clock.now(), command.plan.causationId ?? null);
          return { at: new Date(metadata.occurredAt), metadata };
        });
        const loadedAll = await loadStreams(
          tx,
          Object.fromEntries(refs.map((ref, i) => [String(i), ref])),
          loaders,
          rowsByLoader,
        );
        const settled: Settled[] = [];
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each member's own stream record
        const decisions: (Decision<Record<string, any>, unknown> | null)[] = [];
        const ownAppends: StreamAppend[][] = [];
        let offset = 0;
        for (const [index, member] of batch.entries()) {
          const { plan } = member.command;
          const names = Object.keys(plan.streams);
          const loaded = Object.fromEntries(names.map((name, i) => [name, loadedAll[String(offset + i)]]));
          offset += names.length;
          try {
            const decision = withLogContext(member.context ?? {}, () => plan.decide(loaded, stamps[index]));
            const appends: StreamAppend[] = names.flatMap((name) => {
              const events = decision.events[name];
              if (!events || events.length === 0) return [];
              return [{ streamId: loaded[name].streamId, expectedVersion: loaded[name].version, events: [...events] }];
            });
            decisions.push(decision);
            ownAppends.push(appends);
            settled.push({ ok: true, value: decision.result, events: appends.length });
          } catch (error) {
            // A decision is pure: the refusal is this member's alone, and nothing is written for it.
            decisions.push(null);
            ownAppends.push([]);
            settled.push({ ok: false, error });
          }
        }
        // Every key in one statement: a winner with its answer, a refused command with none (deleted below).
        const keyed = batch.flatMap((member, index) => (member.command.key ? [index] : []));
        const refusedKeys: number[] = [];
        if (keyed.length > 0) {
          const inserted = await batch[0].command.keys.claimAll(
            tx.manager,
            keyed.map((index) => ({
              request: batch[index].command.key!,
              response: decisions[index]?.result ?? null,
              refused: decisions[index] === null,
              at: stamps[index].at,
            })),
          );
          for (const [position, index] of keyed.entries()) {
            if (inserted.has(position)) {
              if (decisions[index] === null) refusedKeys.push(index);
              continue;
            }
            // Another request holds the key (it committed first): this one answers its response, writing nothing.
            decisions[index] = null;
            try {
              await batch[index].command.keys.replay(tx.manager, batch[index].command.key!);
            } catch (error) {
              settled[index] = { ok: false, error };
            }
          }
        }
        if (refusedKeys.length > 0) {
          await batch[0].command.keys.forgetAll(
            tx.manager,
            refusedKeys.map((index) => batch[index].command.key!),
          );
        }
        const appends: BatchAppend[] = [];
        for (const [index, decision] of decisions.entries()) {
          if (decision === null) continue;
          for (const streamAppend of ownAppends[index])
            appends.push({ append: streamAppend, metadata: stamps[index].metadata });
        }
        return { appends, result: settled };
      },
      { readsWithLocks },
    );
    return result;
  }
}
