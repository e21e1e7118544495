/**
 * The rules of staff alerts (docs/adr/0106-staff-alerts.md), without a database or a clock of their own: which facts
 * are worth an operator's attention at once, and when a lagging processor is told (once when an episode starts, once
 * when it ends, not at every reading).
 */

/** A deposit credited is an alert from this many cents up (`STAFF_ALERT_LARGE_DEPOSIT_MINOR`), whatever its method. */
export function isLargeDepositAlert(amountMinor: number, thresholdMinor: number): boolean {
  return amountMinor >= thresholdMinor;
}

/** What one pass of the renewal sweep did. */
export interface RenewalPassCounts {
  renewed: number;
  /** A renewal failure recorded: the balance was short. */
  short: number;
  /** A renewal that failed with an unexpected error (logged). */
  errored: number;
}

/** A pass is told when anything in it failed; a pass that only renewed, or found nothing due, is not. */
export function renewalPassAlertDue(counts: RenewalPassCounts): boolean {
  return counts.short + counts.errored > 0;
}

/** The thresholds that make a processor lagging: `PROCESSOR_LAG_ALERT_EVENTS`, `PROCESSOR_LAG_ALERT_SECONDS`. */
export interface LagThresholds {
  events: number;
  seconds: number;
}

/** The same reading the metrics take (`kupa_processor_behind`): more events behind, or an older oldest one. */
export function isLagging(reading: { events: number; seconds: number }, thresholds: LagThresholds): boolean {
  return reading.events > thresholds.events || reading.seconds > thresholds.seconds;
}

/** What the staff were last told about one processor; null: nothing yet (it never lagged). */
export interface LagEpisode {
  /** Counts the episodes: the dedupe key of an episode's two alerts. */
  episode: number;
  lagging: boolean;
  /** When the episode's state last changed (its start while lagging). */
  changedAt: Date;
}

export interface LagDecision {
  /** The state to keep; null: unchanged. */
  next: LagEpisode | null;
  /** What to tell: the start of episode `episode`, its end, or nothing. */
  alert: { kind: 'lagging' | 'recovered'; episode: number; laggingSince: Date } | null;
}

/**
 * One reading against what was last told: a processor that starts lagging opens a new episode and is told once; one
 * that stays on the same side tells nothing; one back within the thresholds closes the episode and is told once.
 */
export function decideLagEpisode(previous: LagEpisode | null, lagging: boolean, now: Date): LagDecision {
  const wasLagging = previous?.lagging ?? false;
  if (lagging === wasLagging) return { next: null, alert: null };
  if (lagging) {
    const episode = (previous?.episode ?? 0) + 1;
    return {
      next: { episode, lagging: true, changedAt: now },
      alert: { kind: 'lagging', episode, laggingSince: now },
    };
  }
  // `previous` is set: only a lagging processor can recover.
  const episode = previous!.episode;
  return {
    next: { episode, lagging: false, changedAt: now },
    alert: { kind: 'recovered', episode, laggingSince: previous!.changedAt },
  };
}
