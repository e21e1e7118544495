import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ERROR_CATALOGUE, type ApiErrorBody, type ErrorCode, isErrorCode } from '@kupa/proto';
import type { Response } from 'express';
import { DomainError } from '../../kernel';
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

/** PostgreSQL errors that can only come from bad input which slipped past validation. */
const INPUT_SQLSTATES = new Set(['22P02', '22003', '22007', '22008', '22001']);

function body(code: ErrorCode, status: number, details?: Record<string, unknown>): ApiErrorBody {
  const result: ApiErrorBody = { status, error: code, message: ERROR_CATALOGUE[code].en };
  if (details && Object.keys(details).length > 0) result.details = details as ApiErrorBody['details'];
  return result;
}

/**
 * Every failure leaves the API as `{status, error, message, details?}` with a catalogue code (docs/api.md, Errors). Bad
 * input is never a 500: only unexpected errors are, and those are logged without request bodies.
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const answer = this.toBody(exception);
    if (answer.status >= 500) {
      const error = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(error.message, error.stack);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
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
    return body('error.internal.server.error', 500);
  }
}
