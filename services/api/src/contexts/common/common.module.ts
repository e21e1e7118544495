import { type DynamicModule, Module } from '@nestjs/common';
import { COMMON_OPTIONS, type CommonOptions } from './common.options';
import { GetAppVersionController } from './queries/get-app-version/get-app-version.controller';
import { GetDictionariesController } from './queries/get-dictionaries/get-dictionaries.controller';

@Module({})
export class CommonModule {
  static register(options: CommonOptions): DynamicModule {
    return {
      module: CommonModule,
      controllers: [GetAppVersionController, GetDictionariesController],
      providers: [{ provide: COMMON_OPTIONS, useValue: options }],
    };
  }
}
