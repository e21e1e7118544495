import { Module, type OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { Clock } from '../clock';
import { Schedules } from '../jobs';
import { BodilessRouteInterceptor } from './bodiless-routes';
import { RateLimitWindows, RateLimitWindowsSweep } from './rate-limit-windows';

/** The HTTP conventions that apply to every route through Nest's providers (the pipe and filter are set on the app). */
@Module({
  providers: [{ provide: APP_INTERCEPTOR, useClass: BodilessRouteInterceptor }],
})
export class PlatformHttpModule implements OnModuleInit {
  constructor(
    private readonly schedules: Schedules,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** The rate limiter's ended windows are deleted by a recurring job, which the worker runs. */
  onModuleInit(): void {
    this.schedules.register(new RateLimitWindowsSweep(new RateLimitWindows(this.dataSource), this.clock));
  }
}
