import { Global, Module } from '@nestjs/common';
import { BackgroundLoops } from './background-loops';
import { BackgroundWork } from './background-work';

@Global()
@Module({ providers: [BackgroundWork, BackgroundLoops], exports: [BackgroundWork, BackgroundLoops] })
export class WorkersModule {}
