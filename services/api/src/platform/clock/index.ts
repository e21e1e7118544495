export { Clock, ManualClock, SystemClock } from './clock';
export { ClockModule } from './clock.module';
