export { type Backoff, backoffDelayMs } from './backoff';
export { type ClaimedRow, JobQueue, type JobQueueKind, type PassJob } from './job-queue';
export { PollingLoop, type PollingLoopOptions } from './polling-loop';
export { SCHEDULE_LEASE_MS, Schedules, type SchedulesOptions, type Sweep, type SweepPass } from './schedules';
export { Wakeups } from './wakeups';
