/**
 * A loop that runs beside requests and belongs to a context (the platform imports no context, so contexts register
 * theirs here): started with the processors and the mail dispatcher, stopped before the database pool closes, the
 * work in hand finished.
 */
export interface BackgroundLoop {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
  /** Looks for due work now: work was committed in this process (`Wakeups`). A loop without it keeps its pace. */
  wake?(): void;
}

/** The contexts' background loops, which `BackgroundWork` starts and stops with its own. */
export class BackgroundLoops {
  private readonly loops = new Map<string, BackgroundLoop>();

  register(loop: BackgroundLoop): void {
    if (this.loops.has(loop.name)) throw new Error(`Background loop ${loop.name} is registered twice`);
    this.loops.set(loop.name, loop);
  }

  all(): BackgroundLoop[] {
    return [...this.loops.values()];
  }
}
