import { Global, Module } from '@nestjs/common';
import { BackgroundWork } from './background-work';

@Global()
@Module({ providers: [BackgroundWork], exports: [BackgroundWork] })
export class WorkersModule {}
