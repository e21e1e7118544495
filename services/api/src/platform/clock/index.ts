export { Clock, ManualClock, SystemClock } from './clock';
export { ClockModule } from './clock.module';
export { TimedOut, within } from './within';
