import { Controller, Get, Inject, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth';
import { APP_CONFIG, type AppConfig } from '../config';
import { ProcessorRunner } from '../projections/processor-runner';
import { readProcessorLag } from '../projections/processor-lag';

/** A readiness check that has not answered after this long counts as down. */
export const READY_CHECK_TIMEOUT_MS = 3000;

class CheckTimedOut extends Error {}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimedOut(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for an orchestrator or a load balancer (docs/api.md, Health and metrics): public, never rate limited, and
 * outside the OpenAPI document, since their answers follow Terminus' shape rather than our error body. `live` says
 * only that the process answers HTTP; it checks nothing else, so a database outage never gets every replica
 * restarted. `ready` says whether this replica should take traffic: the database answers, every migration this
 * build knows is applied, and no processor is further behind the store than the configured bounds (the Kafka
 * publisher excepted: a broker outage must not take the API out of service, ADR 0035). Failures name
 * the check and, for processors, which are behind by how much; error messages stay in the log.
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');
  private lastReady: boolean | null = null;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly runner: ProcessorRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('live')
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    try {
      const result = await this.health.check([() => this.database(), () => this.migrations(), () => this.processors()]);
      this.noteReadiness(true, []);
      return result;
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const body = error.getResponse() as { error?: Record<string, unknown> };
      this.noteReadiness(false, Object.keys(body.error ?? {}));
      response.status(503);
      return body;
    }
  }

  private async database(): Promise<HealthIndicatorResult<'database'>> {
    const check = this.indicators.check('database');
    try {
      await within(READY_CHECK_TIMEOUT_MS, this.dataSource.query('SELECT 1'));
      return check.up();
    } catch (error) {
      return check.down({ reason: this.reasonOf('database', error, 'unreachable') });
    }
  }

  private async migrations(): Promise<HealthIndicatorResult<'migrations'>> {
    const check = this.indicators.check('migrations');
    try {
      const table = this.dataSource.options.migrationsTableName ?? 'migrations';
      const rows: { name: string }[] = await within(
        READY_CHECK_TIMEOUT_MS,
        this.dataSource.query(`SELECT name FROM "${table}"`),
      );
      const applied = new Set(rows.map((row) => row.name));
      const pending = this.dataSource.migrations.filter(
        (migration) => !applied.has(migration.name ?? migration.constructor.name),
      ).length;
      return pending === 0 ? check.up() : check.down({ pending });
    } catch (error) {
      return check.down({ reason: this.reasonOf('migrations', error, 'unreadable') });
    }
  }

  private async processors(): Promise<HealthIndicatorResult<'processors'>> {
    const check = this.indicators.check('processors');
    const bounds = {
      maxLagEvents: this.config.readyMaxProcessorLagEvents,
      maxLagSeconds: this.config.readyMaxProcessorLagSeconds,
    };
    try {
      const lag = await within(
        READY_CHECK_TIMEOUT_MS,
        readProcessorLag(this.dataSource, this.runner.readinessProcessorNames()),
      );
      const behind = lag.filter(
        (reading) => reading.events > bounds.maxLagEvents || reading.seconds > bounds.maxLagSeconds,
      );
      if (behind.length === 0) return check.up();
      return check.down({
        behind: Object.fromEntries(
          behind.map((reading) => [reading.processor, { events: reading.events, seconds: reading.seconds }]),
        ),
        ...bounds,
      });
    } catch (error) {
      return check.down({ reason: this.reasonOf('processors', error, 'unreadable') });
    }
  }

  /** The answer says what failed in a word; the message, which may name hosts or users, goes to the log only. */
  private reasonOf(check: string, error: unknown, word: string): string {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Readiness check ${check} failed: ${message}`);
    return error instanceof CheckTimedOut ? 'timeout' : word;
  }

  /** Logs when readiness changes, not at every probe. */
  private noteReadiness(ready: boolean, failed: string[]): void {
    if (ready === this.lastReady) return;
    this.lastReady = ready;
    if (ready) this.logger.log('Ready');
    else this.logger.warn(`Not ready: ${failed.join(', ')}`);
  }
}
