/**
 * This process's own "work was committed" signal: an append to the event store, a processor batch that handled
 * events (and so may have queued mails or jobs). When `workerWokenPollIntervalMs` is set, `BackgroundWork` listens
 * and wakes the processors and the job queues at once, so that they can poll seldom without answering late to work
 * made here (docs/adr/0108-woken-background-loops-in-specs.md). Nothing listens otherwise, and telling it is free.
 */
export class Wakeups {
  private readonly listeners = new Set<() => void>();

  /** Calls `listener` at every wake until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  wake(): void {
    for (const listener of this.listeners) listener();
  }
}
