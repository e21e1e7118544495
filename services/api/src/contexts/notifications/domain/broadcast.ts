import { DomainError } from '../../../kernel';

/**
 * The rules of an admin's broadcast (docs/adr/0091-broadcasts.md): who it goes to is frozen when it is sent, a client
 * who switched announcements off is left out and shown as skipped, each recipient is told once under one occasion
 * key, and recipients are handed to the mail outbox no faster than the configured rate.
 */

export type RecipientAtSend = { userUuid: string; status: 'QUEUED' | 'SKIPPED_UNSUBSCRIBED' };

/**
 * The recipients of a broadcast sent now: every client the filter matched, each once, in the order matched; those
 * who opted out are kept as skipped so that the console shows who was not told and why. Nobody matched: refused.
 */
export function recipientsAtSend(matched: readonly string[], optedOut: ReadonlySet<string>): RecipientAtSend[] {
  const unique = [...new Set(matched)];
  if (unique.length === 0) throw new DomainError('error.broadcast.no.recipients');
  return unique.map((userUuid) => ({
    userUuid,
    status: optedOut.has(userUuid) ? 'SKIPPED_UNSUBSCRIBED' : 'QUEUED',
  }));
}

/** The window the rate is counted over. */
export const BROADCAST_RATE_WINDOW_MS = 60_000;

/**
 * How many more recipients may be handed to the outbox now: the rate less those handed in the last minute (all
 * broadcasts together), never below zero.
 */
export function handOffAllowance(ratePerMinute: number, handedInWindow: number): number {
  return Math.max(0, ratePerMinute - handedInWindow);
}

/** The key of one recipient's mail and notification: a repeated hand-off (after a crash) writes neither again. */
export function broadcastOccasionKey(broadcastId: string, userUuid: string): string {
  return `broadcast:${broadcastId}:${userUuid}`;
}
