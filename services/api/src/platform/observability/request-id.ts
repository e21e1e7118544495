import { randomUUID } from 'node:crypto';

/** The header a request id arrives in (from a proxy or a client) and is echoed back in. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * What we accept as a caller's request id: a short token of letters, digits and `._:-`, starting with a letter or a
 * digit (a uuid, a proxy's hex id). Anything else (spaces, quotes, control characters, a long value) could forge
 * log lines or bloat every event's metadata, and is replaced by a generated id.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The caller's request id when it is sane, otherwise a new uuid. */
export function requestIdFrom(header: unknown): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

type RequestWithId = { id?: unknown; headers: Record<string, string | string[] | undefined> };

/**
 * The id of this request: the one the HTTP middleware gave it, or (for a request that bypassed the middleware) one
 * decided now and kept on the request, so that every event of the request shares it.
 */
export function requestIdOf(request: RequestWithId): string {
  if (typeof request.id === 'string') return request.id;
  const id = requestIdFrom(request.headers[REQUEST_ID_HEADER.toLowerCase()]);
  request.id = id;
  return id;
}
