export { type BackgroundLoop, BackgroundLoops } from './background-loops';
export { BackgroundWork } from './background-work';
export { WorkersModule } from './workers.module';
export { PollingLoop, type PollingLoopOptions } from './polling-loop';
