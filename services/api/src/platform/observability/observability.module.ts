import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ProcessorRunner } from '../projections/processor-runner';
import { readProcessorLag } from '../projections/processor-lag';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { Metrics } from './metrics';

/**
 * Health probes, Prometheus metrics and the readings taken at each scrape (docs/adr/0031-health-metrics-logs.md).
 * Global: the command pipeline, the mail dispatcher and the provisioning runner count into the one `Metrics`.
 */
@Global()
@Module({
  // Terminus' own logger prints plain text; the health controller logs readiness changes itself.
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }],
  exports: [Metrics],
})
export class ObservabilityModule implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly runner: ProcessorRunner,
  ) {}

  onModuleInit(): void {
    this.metrics.onScrape(async (metrics) => {
      for (const reading of await readProcessorLag(this.dataSource, this.runner.processorNames())) {
        metrics.processorLagEvents.set({ processor: reading.processor }, reading.events);
        metrics.processorLagSeconds.set({ processor: reading.processor }, reading.seconds);
      }
    });
    this.metrics.onScrape((metrics) => {
      // TypeORM's PostgreSQL driver keeps its pg pool here; the pool's counters are read, never changed.
      const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
      if (!pool) return;
      metrics.poolConnections.set({ state: 'idle' }, pool.idleCount);
      metrics.poolConnections.set({ state: 'active' }, pool.totalCount - pool.idleCount);
      metrics.poolWaiting.set(pool.waitingCount);
      if (pool.options.max !== undefined) metrics.poolMaxConnections.set(pool.options.max);
    });
  }
}
