import {
  BROADCAST_EVENT_TYPES,
  type BroadcastEvent,
  type BroadcastEventType,
  type ClientFilterRequest,
} from '@kupa/proto';
import { assert, type Evolution } from '../../../kernel';
import type { RecipientAtSend } from './broadcast';

/*
 * A broadcast's stream, `broadcast-{uuid}` (docs/adr/0091-broadcasts.md, amended): that it was sent, by whom, to how
 * many, and that its last queued recipient was handed to the mail outbox. Who each recipient is and what became of
 * their mail stay in the recipients table and the outbox: the stream is what the activity log tells.
 */

export type { BroadcastEvent } from '@kupa/proto';

/** Every event type of a broadcast's stream: the registry's. */
export const ALL_BROADCAST_EVENT_TYPES: readonly BroadcastEventType[] = Object.freeze(
  Object.values(BROADCAST_EVENT_TYPES),
);

export interface BroadcastState {
  broadcastId: string;
  handedOff: boolean;
}

export const broadcastEvolution: Evolution<BroadcastState | null, BroadcastEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'BroadcastSent') return { broadcastId: event.data.broadcastId, handedOff: false };
    assert(state, `${event.type} of a broadcast never sent`);
    return { ...state, handedOff: true };
  },
};

export interface SendBroadcast {
  broadcastId: string;
  subjectHe: string;
  subjectEn: string;
  filter: ClientFilterRequest;
  /** The recipients as frozen at the send (`recipientsAtSend`), which already refused an empty audience. */
  recipients: readonly RecipientAtSend[];
  actorId: string;
  at: Date;
}

/** A broadcast is sent once: the counts are those of the recipients frozen with it. */
export function sendBroadcast(command: SendBroadcast, state: BroadcastState | null): BroadcastEvent[] {
  if (state) return [];
  const skippedCount = command.recipients.filter((recipient) => recipient.status === 'SKIPPED_UNSUBSCRIBED').length;
  return [
    {
      type: 'BroadcastSent',
      data: {
        broadcastId: command.broadcastId,
        subjectHe: command.subjectHe,
        subjectEn: command.subjectEn,
        filter: command.filter,
        recipientCount: command.recipients.length,
        queuedCount: command.recipients.length - skippedCount,
        skippedCount,
        actorId: command.actorId,
        sentAt: command.at.toISOString(),
      },
    },
  ];
}

export interface RecordHandOff {
  broadcastId: string;
  /** Recipients whose mail went to the outbox. */
  handedCount: number;
  /** Recipients left out: opted out at the send, or before their turn came. */
  skippedCount: number;
  at: Date;
}

/**
 * The last queued recipient was handed on: recorded once. A broadcast sent before broadcasts had streams has no
 * `BroadcastSent` to follow, so it records nothing either.
 */
export function recordHandOff(command: RecordHandOff, state: BroadcastState | null): BroadcastEvent[] {
  if (!state || state.handedOff) return [];
  return [
    {
      type: 'BroadcastHandedOff',
      data: {
        broadcastId: command.broadcastId,
        handedCount: command.handedCount,
        skippedCount: command.skippedCount,
        handedOffAt: command.at.toISOString(),
      },
    },
  ];
}
