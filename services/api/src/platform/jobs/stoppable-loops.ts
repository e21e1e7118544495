import { setTimeout as sleep } from 'node:timers/promises';

/** What a running loop's body sees of itself: whether it was asked to stop, and a pause that a stop cuts short. */
export interface RunningLoop {
  readonly stopping: boolean;
  /** Waits `ms`, or less when the loop is stopped meanwhile; returns at once when it already is. */
  pause(ms: number): Promise<void>;
}

interface LoopEntry extends RunningLoop {
  stopping: boolean;
  readonly wake: AbortController;
  done: Promise<void>;
}

/**
 * Named loops that run until stopped, one per name: the queue workers, the recurring jobs and the event processors
 * each keep theirs here. `stopAll()` wakes every pausing loop at once and waits for each body to return, so the work
 * in hand finishes before the database pool closes.
 */
export class StoppableLoops {
  private readonly loops = new Map<string, LoopEntry>();

  has(name: string): boolean {
    return this.loops.has(name);
  }

  /** Starts `body` under `name` unless a loop of that name runs; the body returns once `loop.stopping` is true. */
  start(name: string, body: (loop: RunningLoop) => Promise<void>): void {
    if (this.loops.has(name)) return;
    const wake = new AbortController();
    const loop: LoopEntry = {
      stopping: false,
      wake,
      done: Promise.resolve(),
      async pause(ms: number): Promise<void> {
        if (loop.stopping) return;
        await sleep(ms, undefined, { signal: wake.signal }).catch(() => undefined);
      },
    };
    this.loops.set(name, loop);
    loop.done = body(loop);
  }

  /** Asks every loop to stop, wakes the ones pausing, and waits until every body has returned. */
  async stopAll(): Promise<void> {
    const loops = [...this.loops.values()];
    for (const loop of loops) {
      loop.stopping = true;
      loop.wake.abort();
    }
    await Promise.all(loops.map((loop) => loop.done));
    this.loops.clear();
  }
}
