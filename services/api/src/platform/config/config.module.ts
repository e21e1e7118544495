import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './app-config';
import { RewardTiers } from './reward-tiers';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: RewardTiers, useValue: new RewardTiers(config) },
      ],
      exports: [APP_CONFIG, RewardTiers],
    };
  }
}
