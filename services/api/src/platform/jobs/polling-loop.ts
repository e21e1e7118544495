import { StoppableLoops } from './stoppable-loops';

export interface PollingLoopOptions {
  /** How long the loop waits after a pass before the next one. */
  pollIntervalMs: number;
  /** Told about every pass that threw; the loop carries on after the interval. */
  onError?: (error: unknown) => void;
}

/**
 * A pass run again and again until stopped, a pause between passes: how a queue's worker (the mail dispatcher, the
 * provisioning job runner) runs `JobQueue.runPass`. `stop()` wakes a pausing loop at once and lets a running pass
 * finish; the pass is told through `stopped` so that it can end early between items.
 */
export class PollingLoop {
  private readonly loops = new StoppableLoops();

  constructor(
    private readonly pass: (stopped: () => boolean) => Promise<unknown>,
    private readonly options: PollingLoopOptions,
  ) {}

  start(): void {
    this.loops.start('pass', async (loop) => {
      while (!loop.stopping) {
        try {
          await this.pass(() => loop.stopping);
        } catch (error) {
          this.options.onError?.(error);
        }
        await loop.pause(this.options.pollIntervalMs);
      }
    });
  }

  /** Starts the next pass now if the loop is pausing, else right after the pass in hand: new work was committed. */
  wake(): void {
    this.loops.wakeAll();
  }

  /** Lets the pass in hand finish, then stops. */
  async stop(): Promise<void> {
    await this.loops.stopAll();
  }
}
