import {
  BULK_EVENT_TYPES,
  BULK_LIMITS,
  type BulkAction,
  type BulkEvent,
  type BulkEventType,
  bulkTargetKindOf,
} from '@kupa/proto';
import { assert, DomainError, type Evolution } from '../../../kernel';

/*
 * A bulk batch (docs/adr/0090-bulk-operations.md). Its stream, `bulk-batch-{uuid}`, holds its start, one outcome per
 * target and its end. The targets themselves are frozen beside the stream when it starts; the stream counts them, so
 * that the batch knows when it is over and that a target already settled is never settled again.
 */

export type { BulkEvent } from '@kupa/proto';

/** Every event type of a batch's stream: the registry's. */
export const ALL_BULK_EVENT_TYPES: readonly BulkEventType[] = Object.freeze(Object.values(BULK_EVENT_TYPES));

export type TargetOutcome = 'DONE' | 'FAILED';

export interface BulkBatchState {
  batchId: string;
  action: BulkAction;
  targetCount: number;
  settledCount: number;
  failedCount: number;
  /**
   * How the targets in question were settled, when they were: all of them in a fold, only the command's own when the
   * state is read from the batch's rows (a 10,000-target stream is not folded for every chunk).
   */
  outcomes: ReadonlyMap<string, TargetOutcome>;
  completed: boolean;
}

export const bulkBatchEvolution: Evolution<BulkBatchState | null, BulkEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'BulkBatchStarted') {
      return {
        batchId: event.data.batchId,
        action: event.data.action,
        targetCount: event.data.targetCount,
        settledCount: 0,
        failedCount: 0,
        outcomes: new Map(),
        completed: false,
      };
    }
    assert(state, `${event.type} of a batch that never started`);
    switch (event.type) {
      case 'BulkTargetDone':
        return {
          ...state,
          settledCount: state.settledCount + 1,
          outcomes: new Map(state.outcomes).set(event.data.targetId, 'DONE'),
        };
      case 'BulkTargetFailed':
        return {
          ...state,
          settledCount: state.settledCount + 1,
          failedCount: state.failedCount + 1,
          outcomes: new Map(state.outcomes).set(event.data.targetId, 'FAILED'),
        };
      case 'BulkBatchCompleted':
        return { ...state, completed: true };
    }
  },
};

export interface StartBulkBatch {
  batchId: string;
  action: BulkAction;
  filter: Record<string, unknown>;
  targetCount: number;
  reason: string;
  publicNote: string | null;
  amountMinor: number | null;
  days: number | null;
  actorId: string;
  at: Date;
}

/** A batch starts once, over at least one target and at most the limit; each action carries what it needs. */
export function startBulkBatch(command: StartBulkBatch, state: BulkBatchState | null): BulkEvent[] {
  if (state !== null) return [];
  if (command.targetCount < 1) throw new DomainError('error.bulk.no.targets');
  if (command.targetCount > BULK_LIMITS.maxTargets)
    throw new DomainError('error.bulk.too.many.targets', { max: BULK_LIMITS.maxTargets });
  assert(
    (command.action === 'GOODWILL_CREDIT') === (command.amountMinor !== null),
    'a goodwill credit, and only it, carries an amount',
  );
  assert((command.action === 'ADD_DAYS') === (command.days !== null), 'adding days, and only it, carries days');
  return [
    {
      type: 'BulkBatchStarted',
      data: {
        batchId: command.batchId,
        action: command.action,
        targetKind: bulkTargetKindOf(command.action),
        filter: command.filter,
        targetCount: command.targetCount,
        reason: command.reason,
        publicNote: command.publicNote,
        amountMinor: command.amountMinor,
        days: command.days,
        actorId: command.actorId,
        startedAt: command.at.toISOString(),
      },
    },
  ];
}

export type SettleTarget =
  | { targetId: string; outcome: 'DONE'; resultRef: string | null; at: Date }
  | { targetId: string; outcome: 'FAILED'; error: string; at: Date };

/**
 * One target's outcome, and the batch's end with the last one. A target already settled is settled once: a runner
 * resumed after a crash that reports it again records nothing (its action was keyed by the batch and the target, so
 * it did nothing again either).
 */
export function settleBulkTarget(command: SettleTarget, state: BulkBatchState | null): BulkEvent[] {
  if (state === null) throw new DomainError('error.bulk.batch.not.found');
  if (state.outcomes.has(command.targetId)) return [];
  assert(!state.completed, `batch ${state.batchId} completed with target ${command.targetId} unsettled`);
  const at = command.at.toISOString();
  const { batchId } = state;
  const settled: BulkEvent =
    command.outcome === 'DONE'
      ? {
          type: 'BulkTargetDone',
          data: { batchId, targetId: command.targetId, resultRef: command.resultRef, doneAt: at },
        }
      : { type: 'BulkTargetFailed', data: { batchId, targetId: command.targetId, error: command.error, failedAt: at } };
  const settledCount = state.settledCount + 1;
  assert(settledCount <= state.targetCount, `batch ${batchId} settled more targets than it froze`);
  if (settledCount < state.targetCount) return [settled];
  const failedCount = state.failedCount + (command.outcome === 'FAILED' ? 1 : 0);
  return [
    settled,
    {
      type: 'BulkBatchCompleted',
      data: { batchId, doneCount: settledCount - failedCount, failedCount, completedAt: at },
    },
  ];
}

/** A chunk of targets settled in one command: each as `settleBulkTarget` decides it after the ones before it. */
export function settleBulkTargets(commands: readonly SettleTarget[], state: BulkBatchState | null): BulkEvent[] {
  const events: BulkEvent[] = [];
  let current = state;
  for (const command of commands) {
    const decided = settleBulkTarget(command, current);
    events.push(...decided);
    current = decided.reduce(bulkBatchEvolution.evolve, current);
  }
  return events;
}
