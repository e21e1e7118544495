import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { ProcessorRunner } from '../projections/processor-runner';
import { type ProcessorLagReading, readCommitHead, readProcessorLag } from '../projections/processor-lag';
import { Metrics } from './metrics';

/** How often a running process reads the lag by itself, so that the log warns even where nobody scrapes. */
export const LAG_WATCH_INTERVAL_MS = 15_000;

/**
 * Watches every processor's lag (docs/adr/0063): sets `kupa_processor_lag_events`, `kupa_processor_lag_seconds`,
 * `kupa_processor_behind` and `kupa_processor_checkpoint_position`, and the store's `kupa_event_store_commit_position`
 * (the head processors read up to, docs/adr/0061), and logs a warning when a processor falls further behind than the alert thresholds
 * (`PROCESSOR_LAG_ALERT_EVENTS`, `PROCESSOR_LAG_ALERT_SECONDS`) and a line when it is back within them: once per
 * change, not at every reading. A lagging or missing worker is the operator's alert, never a reason for an API replica
 * to refuse customers, so readiness does not look at it.
 */
@Injectable()
export class ProcessorLagWatch implements OnModuleDestroy {
  private readonly logger = new Logger('ProcessorLag');
  /** The processors last found behind; absent ones were within the thresholds (or never read). */
  private readonly behind = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: ProcessorRunner,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Reads the lag every `LAG_WATCH_INTERVAL_MS` until the application closes (the server and the worker call it). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.read().catch(() => undefined), LAG_WATCH_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One reading: the gauges, and a log line for each processor whose side of the thresholds changed. */
  async read(): Promise<ProcessorLagReading[]> {
    const readings = await readProcessorLag(this.dataSource, this.runner.processorNames());
    this.metrics.eventStoreCommitPosition.set(await readCommitHead(this.dataSource));
    for (const reading of readings) {
      const labels = { processor: reading.processor };
      const behind = this.isBehind(reading);
      this.metrics.processorLagEvents.set(labels, reading.events);
      this.metrics.processorLagSeconds.set(labels, reading.seconds);
      this.metrics.processorCheckpointPosition.set(labels, reading.checkpointPosition);
      this.metrics.processorBehind.set(labels, behind ? 1 : 0);
      this.note(reading, behind);
    }
    return readings;
  }

  private isBehind(reading: ProcessorLagReading): boolean {
    return (
      reading.events > this.config.processorLagAlertEvents || reading.seconds > this.config.processorLagAlertSeconds
    );
  }

  private note(reading: ProcessorLagReading, behind: boolean): void {
    if (behind === this.behind.has(reading.processor)) return;
    if (behind) {
      this.behind.add(reading.processor);
      this.logger.warn(
        `Processor ${reading.processor} is behind: ${reading.events} events, the oldest ${reading.seconds} s old ` +
          `(alert above ${this.config.processorLagAlertEvents} events or ${this.config.processorLagAlertSeconds} s); ` +
          'is a worker running?',
      );
    } else {
      this.behind.delete(reading.processor);
      this.logger.log(`Processor ${reading.processor} is within its lag thresholds again`);
    }
  }
}
