import { Global, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SystemClock } from '../clock/clock';
import { APP_CONFIG, type AppConfig } from '../config';
import { Schedules } from '../jobs';
import { BackgroundLoops } from './background-loops';
import { BackgroundWork } from './background-work';

@Global()
@Module({
  providers: [
    BackgroundWork,
    BackgroundLoops,
    {
      provide: Schedules,
      // The period of a recurring job is operational time, kept with the system clock; the sweeps read what is due
      // from the application's clock (docs/adr/0067-one-substrate-for-background-work.md).
      useFactory: (dataSource: DataSource, config: AppConfig) => {
        const logger = new Logger('Schedules');
        return new Schedules(dataSource, new SystemClock(), {
          pollIntervalMs: config.workerPollIntervalMs,
          onError: (name, error) =>
            logger.error(`Sweep ${name} failed a run, retrying: ${error instanceof Error ? error.message : error}`),
        });
      },
      inject: [getDataSourceToken(), APP_CONFIG],
    },
  ],
  exports: [BackgroundWork, BackgroundLoops, Schedules],
})
export class WorkersModule {}
