import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { BodilessRouteInterceptor } from './bodiless-routes';

/** The HTTP conventions that apply to every route through Nest's providers (the pipe and filter are set on the app). */
@Module({
  providers: [{ provide: APP_INTERCEPTOR, useClass: BodilessRouteInterceptor }],
})
export class PlatformHttpModule {}
