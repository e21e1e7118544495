export { DemoModule } from './demo.module';
export { DEMO_HISTORY_DAYS, type DemoWorld, DemoSeed } from './demo-seed';
