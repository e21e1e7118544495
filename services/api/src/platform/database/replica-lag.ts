/**
 * Pure pieces of the read replica's bookkeeping (docs/adr/0113-read-replicas.md): WAL positions as numbers, and the
 * replica's lag in seconds from the primary's positions sampled over time.
 */

/** A WAL position as PostgreSQL prints a `pg_lsn`, `16/B374D848`, as one 64-bit number. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) throw new Error(`Not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** One reading of the primary's WAL write position and when it was taken. */
export interface PrimaryPositionSample {
  atMs: number;
  lsn: bigint;
}

/**
 * The primary's positions of the last `keepMs`, oldest first. The replica's lag in seconds is the age of the oldest
 * sample it has not replayed up to: the primary had written that WAL then, and the replica still lacks it. Unlike
 * `now() - pg_last_xact_replay_timestamp()` on the replica, this does not grow while the primary is idle, nor jump to
 * the length of an idle spell when one write after it is a few milliseconds from being replayed.
 */
export class PrimaryPositions {
  private readonly samples: PrimaryPositionSample[] = [];

  constructor(private readonly keepMs: number) {}

  add(sample: PrimaryPositionSample): void {
    this.samples.push(sample);
    while (this.samples.length > 1 && this.samples[0].atMs < sample.atMs - this.keepMs) this.samples.shift();
  }

  /**
   * Seconds since the primary first held WAL the replica has not replayed (`replayLsn`), 0 when it has replayed up
   * to the newest sample. Past every kept sample, the lag is at least the oldest one's age.
   */
  lagSeconds(replayLsn: bigint, nowMs: number): number {
    const oldestMissing = this.samples.find((sample) => sample.lsn > replayLsn);
    return oldestMissing === undefined ? 0 : Math.max(0, nowMs - oldestMissing.atMs) / 1000;
  }
}
