/**
 * Whether this process can still recover by itself. Something that finds it cannot (the embedded PostgreSQL that
 * does not come back, docs/adr/0064-supervised-embedded-database.md) says why here before the process exits, so that
 * `/api/health/live` answers 503 meanwhile: liveness then tells an orchestrator the truth even before the exit.
 * Process-wide on purpose: the decision is the process's, not one module's.
 */
let notLiveReason: string | null = null;

export function markProcessNotLive(reason: string): void {
  notLiveReason ??= reason;
}

/** Why the process is no longer live, or null while it is. */
export function processNotLiveReason(): string | null {
  return notLiveReason;
}
