/**
 * The one retry formula of background work (docs/adr/0067-one-substrate-for-background-work.md): capped doubling.
 * The first retry waits `baseMs`, each next one twice as long, never longer than `maxMs`.
 */
export interface Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Past this many doublings the cap has long been reached; it keeps `2 **` from overflowing to Infinity. */
const MAX_DOUBLINGS = 30;

/** The wait after `failures` failures in a row (1 for the first; 0 counts as 1). */
export function backoffDelayMs(backoff: Backoff, failures: number): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, MAX_DOUBLINGS);
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** doublings);
}
