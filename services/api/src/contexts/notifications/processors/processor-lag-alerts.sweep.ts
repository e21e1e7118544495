import type { DataSource } from 'typeorm';
import type { Clock } from '../../../platform/clock';
import type { Sweep, SweepPass } from '../../../platform/jobs';
import { readProcessorLag } from '../../../platform/projections';
import type { StaffAlert, StaffAlerts } from '../application/staff-alerts';
import { decideLagEpisode, isLagging, type LagEpisode, type LagThresholds } from '../domain/staff-alerts';

export const PROCESSOR_LAG_ALERTS_SWEEP = 'processor-lag-alerts';
/** A minute: a lag worth an alert lasts minutes (the seconds threshold is 300 by default). */
export const PROCESSOR_LAG_ALERTS_INTERVAL_MS = 60_000;

interface EpisodeRow {
  processor: string;
  episode: number;
  lagging: boolean;
  changed_at: Date;
}

/**
 * Tells the staff when a processor lags (docs/adr/0106-staff-alerts.md): each pass reads every processor's lag as
 * the metrics do (`readProcessorLag`, the thresholds `PROCESSOR_LAG_ALERT_EVENTS` and `PROCESSOR_LAG_ALERT_SECONDS`),
 * and against what `processor_lag_episodes` says was last told, alerts once when an episode starts and once when it
 * ends. The episode's state and its alert are written in one transaction, under the episode's key, so a pass repeated
 * after a crash tells nothing twice. One process of the fleet runs it at a time (a recurring job).
 */
export class ProcessorLagAlertsSweep implements Sweep {
  readonly name = PROCESSOR_LAG_ALERTS_SWEEP;

  constructor(
    private readonly dataSource: DataSource,
    private readonly staffAlerts: StaffAlerts,
    private readonly clock: Clock,
    private readonly processors: () => readonly string[],
    private readonly thresholds: LagThresholds,
    readonly intervalMs: number = PROCESSOR_LAG_ALERTS_INTERVAL_MS,
  ) {}

  async sweep(): Promise<SweepPass> {
    const readings = await readProcessorLag(this.dataSource, this.processors());
    if (readings.length === 0) return { acted: 0, more: false };
    const now = this.clock.now();
    let acted = 0;
    await this.dataSource.transaction(async (manager) => {
      const rows: EpisodeRow[] = await manager.query(
        `SELECT processor, episode, lagging, changed_at FROM processor_lag_episodes
          WHERE processor = ANY($1::text[]) FOR UPDATE`,
        [readings.map((reading) => reading.processor)],
      );
      const told = new Map<string, LagEpisode>(
        rows.map((row) => [
          row.processor,
          { episode: row.episode, lagging: row.lagging, changedAt: new Date(row.changed_at) },
        ]),
      );
      const alerts: StaffAlert[] = [];
      for (const reading of readings) {
        const decision = decideLagEpisode(
          told.get(reading.processor) ?? null,
          isLagging(reading, this.thresholds),
          now,
        );
        if (decision.next === null || decision.alert === null) continue;
        await manager.query(
          `INSERT INTO processor_lag_episodes (processor, episode, lagging, changed_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (processor) DO UPDATE SET episode = $2, lagging = $3, changed_at = $4`,
          [reading.processor, decision.next.episode, decision.next.lagging, decision.next.changedAt],
        );
        const { kind, episode, laggingSince } = decision.alert;
        alerts.push({
          key: `processor-${kind}:${reading.processor}:${episode}`,
          kind: kind === 'lagging' ? 'staff-processor-lagging' : 'staff-processor-recovered',
          params: {
            processor: reading.processor,
            lagEvents: reading.events,
            lagSeconds: reading.seconds,
            laggingSince: laggingSince.toISOString(),
            link: '/admin',
          },
        });
      }
      await this.staffAlerts.record(manager, alerts, now);
      acted = alerts.length;
    });
    return { acted, more: false };
  }
}
