import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
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

/**
 * Prometheus' scrape target, outside the OpenAPI document (its format is Prometheus' text exposition). Open by
 * default, as Prometheus expects, because it holds only aggregate figures under bounded labels; with
 * `METRICS_TOKEN` set it answers only `Authorization: Bearer <token>` (Prometheus' `authorization` setting), and
 * 401 `error.token.invalid` otherwise.
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() response: Response) {
    const token = this.config.metricsToken;
    // Compared as digests: equal lengths for timingSafeEqual, and no timing hint about the token's length.
    if (token !== null && !timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${token}`)))
      throw new ApiError('error.token.invalid');
    const text = await this.metrics.scrape();
    response.setHeader('Content-Type', this.metrics.contentType);
    response.setHeader('Cache-Control', 'no-store');
    response.send(text);
  }
}
