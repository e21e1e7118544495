import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { Schedules, Wakeups } from '../jobs';
import { MailDispatcher } from '../mail/mail-outbox';
import { withLogContext } from '../observability/log-context';
import { ProcessorRunner } from '../projections/processor-runner';
import { BackgroundLoops } from './background-loops';

/**
 * The work that runs beside requests: every registered processor (once across all replicas, under its advisory
 * lock), the recurring jobs (`Schedules`: the sweeps, once per period across the fleet) and the queued jobs of
 * platform/jobs: the mail dispatcher and the loops contexts registered in `BackgroundLoops` (provisioning jobs). The
 * server starts it after it listens; `worker.ts` runs it without HTTP; tests start it themselves. It stops before the
 * application closes its database pool, finishing the batch, mail or job in hand.
 */
@Injectable()
export class BackgroundWork implements BeforeApplicationShutdown {
  private started = false;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly runner: ProcessorRunner,
    private readonly schedules: Schedules,
    private readonly dispatcher: MailDispatcher,
    private readonly loops: BackgroundLoops,
    private readonly wakeups: Wakeups,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether the work runs: started and not stopped (a worker's readiness). */
  get running(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    // Each loop runs under its name, which its log lines and the commands it runs carry (the runner names its own).
    this.runner.start();
    this.schedules.start();
    withLogContext({ operation: 'loop mail-dispatcher' }, () => this.dispatcher.start());
    for (const loop of this.loops.all()) withLogContext({ operation: `loop ${loop.name}` }, () => loop.start());
    if (this.config.workerWokenPollIntervalMs !== null) {
      this.stopListening = this.wakeups.listen(() => {
        this.runner.wake();
        this.dispatcher.wake();
        for (const loop of this.loops.all()) loop.wake?.();
      });
    }
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopListening?.();
    this.stopListening = null;
    await Promise.all([
      this.runner.stop(),
      this.schedules.stop(),
      this.dispatcher.stop(),
      ...this.loops.all().map((loop) => loop.stop()),
    ]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
