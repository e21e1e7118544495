export { BackgroundWork } from './background-work';
export { WorkersModule } from './workers.module';
