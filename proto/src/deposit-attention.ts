import type { IsoDateTime } from './payloads';

/*
 * The dashboard's large deposits (docs/product.md, Dashboard): a successful deposit of at least `LARGE_DEPOSIT_MIN`
 * waits in the attention queue until a staff member marks it seen, or until it is older than the queue's window.
 * Seeing it is an event on its own small stream, `deposit-attention-{paymentId}`, not on the payment's stream: it
 * moves no money and changes nothing the ledger replays.
 */

export const DEPOSIT_ATTENTION_EVENT_TYPES = Object.freeze({
  largeDepositAcknowledged: 'LargeDepositAcknowledged',
} as const);

export type DepositAttentionEventType =
  (typeof DEPOSIT_ATTENTION_EVENT_TYPES)[keyof typeof DEPOSIT_ATTENTION_EVENT_TYPES];

export const DEPOSIT_ATTENTION_STREAM_PREFIX = 'deposit-attention-';

export function depositAttentionStreamId(paymentId: number): string {
  return `${DEPOSIT_ATTENTION_STREAM_PREFIX}${paymentId}`;
}

/** A staff member saw a large deposit: it leaves the dashboard's queue. Who is the event's actor. */
export interface LargeDepositAcknowledgedData {
  paymentId: number;
  userUuid: string;
  amountMinor: number;
  actorId: string;
  acknowledgedAt: IsoDateTime;
}

export interface DepositAttentionEventDataByType {
  LargeDepositAcknowledged: LargeDepositAcknowledgedData;
}

export type DepositAttentionEvent = {
  [Type in DepositAttentionEventType]: { type: Type; data: DepositAttentionEventDataByType[Type] };
}[DepositAttentionEventType];
