import { setTimeout as sleep } from 'node:timers/promises';

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
  private loop: { stopping: boolean; wake: AbortController; done: Promise<void> } | null = null;

  constructor(
    private readonly pass: (stopped: () => boolean) => Promise<unknown>,
    private readonly options: PollingLoopOptions,
  ) {}

  start(): void {
    if (this.loop) return;
    const loop = { stopping: false, wake: new AbortController(), done: Promise.resolve() };
    this.loop = loop;
    loop.done = (async () => {
      while (!loop.stopping) {
        try {
          await this.pass(() => loop.stopping);
        } catch (error) {
          this.options.onError?.(error);
        }
        if (loop.stopping) break;
        await sleep(this.options.pollIntervalMs, undefined, { signal: loop.wake.signal }).catch(() => undefined);
      }
    })();
  }

  /** Lets the pass in hand finish, then stops. */
  async stop(): Promise<void> {
    const loop = this.loop;
    if (!loop) return;
    loop.stopping = true;
    loop.wake.abort();
    await loop.done;
    this.loop = null;
  }
}
