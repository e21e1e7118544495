import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { DemoSeed } from './demo-seed';

/** The embedded demo's catalogue and history; does nothing unless `DEMO_DATA` is on. */
@Module({ imports: [CqrsModule], providers: [DemoSeed], exports: [DemoSeed] })
export class DemoModule {}
