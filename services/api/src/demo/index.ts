export { DemoModule } from './demo.module';
export { DemoSeed } from './demo-seed';
