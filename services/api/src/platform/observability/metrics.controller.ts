import { Controller, Get, Headers, Inject, Logger, type OnModuleInit, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Public } from '../auth';
import { APP_CONFIG, type AppConfig } from '../config';
import { ApiError } from '../http/api-error';
import { Metrics } from './metrics';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether a scrape without a token is refused: outside the embedded demo setup, when no token is set. */
export function metricsClosed(config: Pick<AppConfig, 'metricsToken' | 'databaseUrl'>): boolean {
  return config.metricsToken === null && config.databaseUrl !== null;
}

/**
 * Why a scrape with this `Authorization` header is refused, or null when it may read the metrics: the API's
 * `/api/metrics` and a worker's `/metrics` answer alike (docs/adr/0059, 0063).
 */
export function metricsRefusal(
  config: Pick<AppConfig, 'metricsToken' | 'databaseUrl'>,
  authorization: string | undefined,
): 'error.metrics.token.unset' | 'error.token.invalid' | null {
  if (metricsClosed(config)) return 'error.metrics.token.unset';
  const token = config.metricsToken;
  // Compared as digests: equal lengths for timingSafeEqual, and no timing hint about the token's length.
  if (token !== null && !timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${token}`)))
    return 'error.token.invalid';
  return null;
}

/**
 * Prometheus' scrape target, outside the OpenAPI document (its format is Prometheus' text exposition). With
 * `METRICS_TOKEN` set it answers only `Authorization: Bearer <token>` (Prometheus' `authorization` setting), and
 * 401 `error.token.invalid` otherwise. Without it, it is open only in the embedded demo setup (no `DATABASE_URL`);
 * a real deployment answers 403 `error.metrics.token.unset` and says so at start, since the figures (payment and
 * sign-in rates, the pool, lags) tell an outsider more than a deployment should publish (ADR 0059, amending 0031).
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController implements OnModuleInit {
  private readonly logger = new Logger('Metrics');

  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (metricsClosed(this.config)) this.logger.warn('METRICS_TOKEN is not set: /api/metrics answers 403 until it is');
  }

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() response: Response) {
    const refusal = metricsRefusal(this.config, authorization);
    if (refusal !== null) throw new ApiError(refusal);
    const text = await this.metrics.scrape();
    response.setHeader('Content-Type', this.metrics.contentType);
    response.setHeader('Cache-Control', 'no-store');
    response.send(text);
  }
}
