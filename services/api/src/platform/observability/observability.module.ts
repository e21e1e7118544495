import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { Metrics } from './metrics';
import { ProcessorLagWatch } from './processor-lag-watch';
import { servingChecks } from './readiness-checks';

/**
 * Health probes, Prometheus metrics and the readings taken at each scrape (docs/adr/0031-health-metrics-logs.md).
 * Global: the command pipeline, the mail dispatcher and the provisioning runner count into the one `Metrics`.
 */
@Global()
@Module({
  // Terminus' own logger prints plain text; the health controller logs readiness changes itself.
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, MetricsController],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }, ProcessorLagWatch],
  exports: [Metrics, ProcessorLagWatch],
})
export class ObservabilityModule implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly lagWatch: ProcessorLagWatch,
  ) {}

  onModuleInit(): void {
    // The pool first: its counters describe the process between scrapes, before any reading borrows a connection.
    this.metrics.onScrape((metrics) => {
      // TypeORM's PostgreSQL driver keeps its pg pool here; the pool's counters are read, never changed.
      const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
      if (!pool) return;
      metrics.poolConnections.set({ state: 'idle' }, pool.idleCount);
      metrics.poolConnections.set({ state: 'active' }, pool.totalCount - pool.idleCount);
      metrics.poolWaiting.set(pool.waitingCount);
      if (pool.options.max !== undefined) metrics.poolMaxConnections.set(pool.options.max);
    });
    // What readiness answers for, so that an alert sees a replica out of service without probing it itself.
    this.metrics.onScrape(async (metrics) => {
      const states = Object.values(await servingChecks(this.dataSource));
      metrics.databaseReady.set(states.every((state) => state.status === 'up') ? 1 : 0);
    });
    this.metrics.onScrape(async () => {
      await this.lagWatch.read();
    });
  }
}
