import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Responder = (call: RecordedCall) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * Replaces `fetch` at the network edge: each call is recorded and answered by the first route whose method and path
 * match. Routes given as arrays answer in turn (the last answer repeats), which is how a test scripts "401, then 200".
 */
export function mockFetch(routes: Record<string, Responder | Responder[]>) {
  const calls: RecordedCall[] = [];
  const counters = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const rawBody = init.body;
    const call: RecordedCall = {
      method,
      url,
      headers: new Headers(init.headers),
      body: typeof rawBody === 'string' ? JSON.parse(rawBody) : rawBody,
      credentials: init.credentials,
    };
    calls.push(call);
    const key = `${method} ${url}`;
    const route = routes[key];
    if (!route) return json(404, { status: 404, error: 'error.entity.not.found', message: `No mock for ${key}` });
    if (Array.isArray(route)) {
      const index = counters.get(key) ?? 0;
      counters.set(key, index + 1);
      return route[Math.min(index, route.length - 1)](call);
    }
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
