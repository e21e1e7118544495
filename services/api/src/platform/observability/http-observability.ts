import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { JsonLogger } from './json-logger';
import { routeOf, withLogContext } from './log-context';
import type { Metrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';

/** Probes and scrapes arrive every few seconds; their routine answers are logged at debug only. */
const ROUTINE_PATHS = ['/api/health/', '/api/metrics'];

/** The path without its query string: a query may carry a one-time token (the confirmation link's). */
function pathOf(request: IncomingMessage): string {
  const url = (request as Request).originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function routeLabel(request: IncomingMessage): string {
  const route = (request as Request).route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}

/**
 * The first middleware of every request (docs/adr/0031-health-metrics-logs.md): it settles the request id (the
 * caller's `X-Request-Id` when sane, else a new uuid), echoes it in the answer, runs the rest of the request under it
 * (log lines carry it, and commands take it as their events' correlation id), logs one line when the answer is sent
 * (method, path without the query, route, status, duration; no header, no body), and times the request by route.
 */
export function useHttpObservability(app: NestExpressApplication, logger: JsonLogger, metrics: Metrics): void {
  const lineOf = (request: IncomingMessage, response: ServerResponse, value: Record<string, unknown>) => ({
    requestId: request.id,
    route: routeOf(request as Request) ?? 'unmatched',
    res: value.res,
    durationMs: value.durationMs,
  });
  const requestLog = pinoHttp({
    logger: logger.pino,
    genReqId: (request) => request.id,
    wrapSerializers: false,
    serializers: {
      req: (request: IncomingMessage) => ({ method: request.method, path: pathOf(request) }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
    },
    customAttributeKeys: { responseTime: 'durationMs' },
    customLogLevel: (request, response, error) => {
      if (error || response.statusCode >= 500) return 'error';
      const path = pathOf(request);
      return ROUTINE_PATHS.some((prefix) => path.startsWith(prefix)) ? 'debug' : 'info';
    },
    customSuccessObject: lineOf,
    // The failure itself was logged where it happened (the error filter logs a 500 with its stack).
    customErrorObject: (request, response, _error, value) => lineOf(request, response, value),
    customErrorMessage: () => 'request failed',
  });

  app.use((request: Request, response: Response, next: NextFunction) => {
    const requestId = requestIdFrom(request.headers[REQUEST_ID_HEADER.toLowerCase()]);
    request.id = requestId;
    response.setHeader(REQUEST_ID_HEADER, requestId);
    const startedMs = performance.now();
    response.once('finish', () => {
      metrics.httpRequestDuration.observe(
        { method: request.method, route: routeLabel(request), status_code: String(response.statusCode) },
        (performance.now() - startedMs) / 1000,
      );
    });
    withLogContext({ requestId, request }, () => {
      requestLog(request, response);
      next();
    });
  });
}
