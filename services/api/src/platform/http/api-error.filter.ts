import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ERROR_CATALOGUE, type ApiErrorBody, type ErrorCode, isErrorCode } from '@kupa/proto';
import type { Response } from 'express';
import { DomainError } from '../../kernel';
import { databaseUnavailability } from '../database/connection-errors';
import type { Metrics } from '../observability/metrics';
import { ApiError } from './api-error';

/** Framework statuses without a more specific cause map to these catalogue codes. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'error.bad.request',
  401: 'error.session.expired',
  403: 'error.access.forbidden',
  404: 'error.entity.not.found',
  405: 'error.bad.request',
  409: 'error.entity.already.exists',
  413: 'error.bad.request',
  415: 'error.unsupported.media.type',
  429: 'error.rate.limited',
};

/**
 * How long a client should wait before trying again when the database is out of connections or out of reach: long
 * enough not to pile onto a server that is full, short enough for a restart or a failover (docs/adr/0127).
 */
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** PostgreSQL errors that can only come from bad input which slipped past validation. */
const INPUT_SQLSTATES = new Set(['22P02', '22003', '22007', '22008', '22001']);

function body(code: ErrorCode, status: number, details?: Record<string, unknown>): ApiErrorBody {
  const result: ApiErrorBody = { status, error: code, message: ERROR_CATALOGUE[code].en };
  if (details && Object.keys(details).length > 0) result.details = details as ApiErrorBody['details'];
  return result;
}

/**
 * Every failure leaves the API as `{status, error, message, details?}` with a catalogue code (docs/api.md, Errors). Bad
 * input is never a 500: only unexpected errors are, and those are logged without request bodies. A database that is
 * out of connections or out of reach is not a bug either: 503 `error.service.unavailable` with `Retry-After`, logged
 * as a warning without a stack and counted (docs/adr/0127-database-unavailable-is-503.md).
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  constructor(private readonly metrics?: Metrics) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const unavailability = databaseUnavailability(exception);
    const answer = this.toBody(exception);
    if (unavailability !== null) {
      this.metrics?.databaseUnavailable.inc({ reason: unavailability });
      this.logger.warn(`The database is ${unavailability}: ${(exception as Error).message}`);
    } else if (answer.status >= 500) {
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(error.message, error.stack);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (unavailability !== null) response.setHeader('Retry-After', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    response.status(answer.status).json(answer);
  }

  toBody(exception: unknown): ApiErrorBody {
    if (exception instanceof ApiError) return body(exception.code, exception.status, exception.details);
    if (exception instanceof DomainError) {
      return body(exception.code, ERROR_CATALOGUE[exception.code].status, exception.details);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const declared =
        typeof response === 'object' && response !== null ? (response as { error?: unknown }).error : undefined;
      if (isErrorCode(declared)) return body(declared, status);
      const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'error.internal.server.error' : 'error.bad.request');
      return body(code, status);
    }
    const typed = exception as { type?: string; status?: number; code?: string };
    // Express body-parser failures (malformed JSON, too large, bad encoding) carry a `type` and a 4xx status.
    if (typeof typed?.type === 'string' && typeof typed.status === 'number' && typed.status < 500) {
      return body('error.bad.request', typed.status);
    }
    if (typeof typed?.code === 'string' && INPUT_SQLSTATES.has(typed.code)) return body('error.bad.request', 400);
    if (databaseUnavailability(exception) !== null) return body('error.service.unavailable', 503);
    return body('error.internal.server.error', 500);
  }
}
