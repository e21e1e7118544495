import type { IsoDateTime } from './payloads';

/*
 * Bulk operations (docs/adr/0090-bulk-operations.md): an admin picks clients or subscriptions with the staff lists'
 * filters, sees how many match, and runs one action over all of them as one batch: block, unblock, a goodwill credit,
 * or days added. The targets are frozen when the batch starts (the count previewed is the count run); each target's
 * action is keyed by (batch, target) in the context that does it, so a batch resumed after a crash does nothing twice.
 */

/** Events of a batch's own stream, `bulk-batch-{uuid}`: its start, one outcome per target, its end. */
export const BULK_EVENT_TYPES = Object.freeze({
  batchStarted: 'BulkBatchStarted',
  targetDone: 'BulkTargetDone',
  targetFailed: 'BulkTargetFailed',
  batchCompleted: 'BulkBatchCompleted',
} as const);

export type BulkEventType = (typeof BULK_EVENT_TYPES)[keyof typeof BULK_EVENT_TYPES];

export const BULK_BATCH_STREAM_PREFIX = 'bulk-batch-';

export function bulkBatchStreamId(batchId: string): string {
  return `${BULK_BATCH_STREAM_PREFIX}${batchId}`;
}

/** What a batch does to each target. ADD_DAYS works on subscriptions, the others on clients. */
export const BULK_ACTIONS = Object.freeze(['BLOCK', 'UNBLOCK', 'GOODWILL_CREDIT', 'ADD_DAYS'] as const);
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** What a batch's targets are: clients (users) or subscriptions. */
export const BULK_TARGET_KINDS = Object.freeze(['CLIENT', 'SUBSCRIPTION'] as const);
export type BulkTargetKind = (typeof BULK_TARGET_KINDS)[number];

export function bulkTargetKindOf(action: BulkAction): BulkTargetKind {
  return action === 'ADD_DAYS' ? 'SUBSCRIPTION' : 'CLIENT';
}

export const BULK_BATCH_STATUSES = Object.freeze(['RUNNING', 'COMPLETED'] as const);
export type BulkBatchStatus = (typeof BULK_BATCH_STATUSES)[number];

export const BULK_LIMITS = Object.freeze({
  /** The most targets one batch takes: the 10,000 with room. */
  maxTargets: 20_000,
  /** The most days one batch adds to each subscription. */
  maxDays: 365,
  /** The largest goodwill credit per client, in minor units ($500.00). */
  maxGoodwillMinor: 50_000,
  /** How many targets the preview shows beside the count. */
  previewSample: 10,
});

/**
 * A batch began: what it does, to which targets (frozen in `targetCount` rows beside the stream), why, and who asked.
 * `filter` is the selection as the admin made it, kept so the batch says what it was meant to reach.
 */
export interface BulkBatchStartedData {
  batchId: string;
  action: BulkAction;
  targetKind: BulkTargetKind;
  filter: Record<string, unknown>;
  targetCount: number;
  reason: string;
  /** What the client is told (a goodwill credit's note on their payment); null for nothing. */
  publicNote: string | null;
  /** The goodwill credit per client; null for other actions. */
  amountMinor: number | null;
  /** The days added per subscription; null for other actions. */
  days: number | null;
  actorId: string;
  startedAt: IsoDateTime;
}

/** The action was done to one target (or found already done: blocking a blocked client). */
export interface BulkTargetDoneData {
  batchId: string;
  targetId: string;
  /** What the action made, when it made something: the goodwill payment's id. */
  resultRef: string | null;
  doneAt: IsoDateTime;
}

/** The action was refused for one target (a catalogue error code): the batch goes on with the others. */
export interface BulkTargetFailedData {
  batchId: string;
  targetId: string;
  error: string;
  failedAt: IsoDateTime;
}

/** Every target has its outcome. */
export interface BulkBatchCompletedData {
  batchId: string;
  doneCount: number;
  failedCount: number;
  completedAt: IsoDateTime;
}

export interface BulkEventDataByType {
  BulkBatchStarted: BulkBatchStartedData;
  BulkTargetDone: BulkTargetDoneData;
  BulkTargetFailed: BulkTargetFailedData;
  BulkBatchCompleted: BulkBatchCompletedData;
}

export type BulkEvent = {
  [Type in BulkEventType]: { type: Type; data: BulkEventDataByType[Type] };
}[BulkEventType];

/** A batch as the console shows it, with its progress. Money in dollars at the HTTP edge, as everywhere. */
export interface BulkBatch {
  id: string;
  action: BulkAction;
  targetKind: BulkTargetKind;
  filter: Record<string, unknown>;
  reason: string;
  publicNote: string | null;
  /** The goodwill credit per client; null for other actions. */
  amount: number | null;
  days: number | null;
  status: BulkBatchStatus;
  targetCount: number;
  doneCount: number;
  failedCount: number;
  startedAt: IsoDateTime;
  startedBy: string;
  completedAt: IsoDateTime | null;
}

export interface BulkBatchList {
  items: BulkBatch[];
}

/** One target a selection matches: its id and how people recognise it (an e-mail address). */
export interface BulkTargetSample {
  id: string;
  label: string;
}

/** What a selection matches now: how many, and the first few. Starting it freezes the same selection. */
export interface BulkPreview {
  action: BulkAction;
  targetKind: BulkTargetKind;
  total: number;
  sample: BulkTargetSample[];
}
