import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What a running loop's body sees of itself: whether it was asked to stop, and a pause that a stop or a wake cuts
 * short.
 */
export interface RunningLoop {
  readonly stopping: boolean;
  /** Waits `ms`, or less when the loop is stopped or woken meanwhile; returns at once when it already is stopped. */
  pause(ms: number): Promise<void>;
}

interface LoopEntry extends RunningLoop {
  stopping: boolean;
  /** The pause in progress, which a stop or `wakeAll()` cuts short; null while the body works. */
  nap: AbortController | null;
  /** Woken while at work: the next pause returns at once, since the work looked at may predate the wake. */
  woken: boolean;
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
    const loop: LoopEntry = {
      stopping: false,
      nap: null,
      woken: false,
      done: Promise.resolve(),
      async pause(ms: number): Promise<void> {
        if (loop.stopping) return;
        if (loop.woken) {
          loop.woken = false;
          return;
        }
        const nap = new AbortController();
        loop.nap = nap;
        await sleep(ms, undefined, { signal: nap.signal }).catch(() => undefined);
        loop.nap = null;
        loop.woken = false;
      },
    };
    this.loops.set(name, loop);
    loop.done = body(loop);
  }

  /**
   * Cuts short the pause of every loop pausing now, which goes on at once: new work was committed in this process. A
   * loop at work skips its next pause instead, since what it read may predate the wake.
   */
  wakeAll(): void {
    for (const loop of this.loops.values()) {
      loop.woken = true;
      loop.nap?.abort();
    }
  }

  /** Asks every loop to stop, wakes the ones pausing, and waits until every body has returned. */
  async stopAll(): Promise<void> {
    const loops = [...this.loops.values()];
    for (const loop of loops) {
      loop.stopping = true;
      loop.nap?.abort();
    }
    await Promise.all(loops.map((loop) => loop.done));
    this.loops.clear();
  }
}
