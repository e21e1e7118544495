import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the code running now works for: one HTTP request (its id, and the request itself for its route once routing
 * matched it), or one background loop (a processor, a sweep, the mail dispatcher, a context's loop). Log lines carry
 * it, and commands are counted under it.
 */
export interface LogContext {
  readonly requestId?: string;
  /** The request, read lazily: Express names its route only once routing matched it. */
  readonly request?: { readonly method: string; readonly route?: { readonly path?: unknown } };
  /** A background loop's name, such as `processor identity-mails`. */
  readonly operation?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `work` (and everything it starts, awaited or not) under `context`. */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/** `POST /api/payments`: the route pattern, never the path itself, so that ids and query strings stay out. */
export function routeOf(request: LogContext['request']): string | null {
  const path = request?.route?.path;
  return typeof path === 'string' ? `${request?.method ?? 'GET'} ${path}` : null;
}

/**
 * The name commands are counted under: the route of the request that runs them, or the background loop's name.
 * Work outside both (the CLI, start-up bootstrap) is `other`.
 */
export function currentOperation(): string {
  const context = storage.getStore();
  if (!context) return 'other';
  return context.operation ?? routeOf(context.request) ?? (context.requestId ? 'unmatched route' : 'other');
}
