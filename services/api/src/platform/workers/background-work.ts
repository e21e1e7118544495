import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { MailDispatcher } from '../mail/mail-outbox';
import { ProcessorRunner } from '../projections/processor-runner';

/**
 * The work that runs beside requests: every registered processor (once across all replicas, under its advisory
 * lock) and the mail dispatcher. The server starts it after it listens; `worker.ts` runs it without HTTP; tests start
 * it themselves. It stops before the application closes its database pool, finishing the batch or mail in hand.
 */
@Injectable()
export class BackgroundWork implements BeforeApplicationShutdown {
  private started = false;

  constructor(
    private readonly runner: ProcessorRunner,
    private readonly dispatcher: MailDispatcher,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.runner.start();
    this.dispatcher.start();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await Promise.all([this.runner.stop(), this.dispatcher.stop()]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
