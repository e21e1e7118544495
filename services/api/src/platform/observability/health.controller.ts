import { Controller, Get, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, type HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../auth';
import { processNotLiveReason } from './process-liveness';
import { servingChecks } from './readiness-checks';

/**
 * Probes for an orchestrator or a load balancer (docs/api.md, Health and metrics): public, never rate limited, and
 * outside the OpenAPI document, since their answers follow Terminus' shape rather than our error body. `live` says
 * only that the process answers HTTP and has not given itself up; it checks nothing else, so a database outage never
 * gets every replica restarted. It fails only once the process found it cannot recover by itself and is exiting (its
 * embedded PostgreSQL did not come back, ADR 0064). `ready` says whether this replica can serve what it serves: the
 * database answers and every migration this build knows is applied. It does not look at the processors: a lagging or
 * missing worker delays mails and provisioning, which every replica would refuse alike, so it is an alert
 * (`ProcessorLagWatch`), never a reason to turn customers away (docs/adr/0063). Failures name the check; error
 * messages stay in the log.
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
  ) {}

  @Get('live')
  async live(@Res({ passthrough: true }) response: Response) {
    try {
      return await this.health.check([() => this.process()]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // Terminus' shape, as readiness answers it, rather than the error filter's body.
      response.status(503);
      return error.getResponse();
    }
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) response: Response) {
    try {
      const result = await this.health.check([() => this.serving()]);
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

  /** Down only once the process has decided it cannot recover (its embedded database gone for good) and exits. */
  private process(): HealthIndicatorResult<'process'> {
    const check = this.indicators.check('process');
    const reason = processNotLiveReason();
    if (reason === null) return check.up();
    this.logger.error(`Not live: ${reason}`);
    return check.down({ reason: 'unrecoverable' });
  }

  /** What readiness answers for, as Terminus' indicators; a failure's message goes to the log only. */
  private async serving(): Promise<HealthIndicatorResult> {
    const states = await servingChecks(this.dataSource, (check, error) =>
      this.logger.warn(`Readiness check ${check} failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    const results = Object.entries(states).map(([name, { status, ...details }]) =>
      status === 'up' ? this.indicators.check(name).up() : this.indicators.check(name).down(details),
    );
    return Object.assign({}, ...results) as HealthIndicatorResult;
  }

  /** Logs when readiness changes, not at every probe. */
  private noteReadiness(ready: boolean, failed: string[]): void {
    if (ready === this.lastReady) return;
    this.lastReady = ready;
    if (ready) this.logger.log('Ready');
    else this.logger.warn(`Not ready: ${failed.join(', ')}`);
  }
}
