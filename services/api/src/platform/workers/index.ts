export { type BackgroundLoop, BackgroundLoops } from './background-loops';
export { BackgroundWork } from './background-work';
export { WorkersModule } from './workers.module';
