export { DemoModule } from './demo.module';
export { DEMO_HISTORY_DAYS, type DemoDays, DemoSeed } from './demo-seed';
