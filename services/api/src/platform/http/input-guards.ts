import type { FieldError } from '@kupa/proto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error';
import { restoreInexactAmounts } from './exact-amounts';

/** The largest JSON body the API reads; every request body it documents is a few hundred bytes. */
export const JSON_BODY_LIMIT = '100kb';

/**
 * How deeply a JSON body may nest objects and arrays. The deepest body a route takes is three levels (a search's
 * `sorts[0].id`); a body nested thousands of levels deep would otherwise reach the recursive DTO transformation and
 * exhaust the stack there, which is a 500.
 */
export const JSON_DEPTH_MAX = 16;

/**
 * Names of members every plain object inherits. As body keys they are never fields of ours, and the DTO
 * transformation silently skips or misuses them (`__proto__` replaces the prototype, `constructor` is dropped), so
 * they are refused as unknown fields before that.
 */
const INHERITED_MEMBER_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A UTF-16 surrogate without its partner: it has no UTF-8 form, so PostgreSQL cannot store it faithfully. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text PostgreSQL cannot store: NUL (its `text` and `jsonb` refuse it) or broken UTF-16. */
function isUnstorableText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** The depth of the deepest container in a parsed JSON value, counted without recursion and stopping past `limit`. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, depth } = next;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * The problems no DTO rule can see in a parsed body or query: keys that name inherited object members, and text
 * PostgreSQL cannot store (in values and in keys). Paths are written as the validation pipe writes them
 * (`sorts.0.id`). The value's depth is already bounded by `JSON_DEPTH_MAX`, so recursion is safe here.
 */
export function unsafeInputFields(value: unknown, path = ''): FieldError[] {
  if (typeof value === 'string') {
    return isUnstorableText(value) ? [{ field: path || 'body', error: 'error.validation.invalid.input' }] : [];
  }
  if (value === null || typeof value !== 'object') return [];
  const problems: FieldError[] = [];
  for (const key of Object.keys(value)) {
    const field = path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && INHERITED_MEMBER_NAMES.has(key)) {
      problems.push({ field, error: 'error.validation.unknown.field' });
    } else if (isUnstorableText(key)) {
      problems.push({ field, error: 'error.validation.invalid.input' });
    } else {
      problems.push(...unsafeInputFields((value as Record<string, unknown>)[key], field));
    }
  }
  return problems;
}

/**
 * Refuses a parsed JSON body nested deeper than `JSON_DEPTH_MAX` with the same 400 `error.bad.request` as JSON that
 * does not parse: like a syntax error it is a property of the whole body, so it is answered before the guards.
 */
function refuseDeepJson(request: Request, _response: Response, next: NextFunction): void {
  if (jsonDepthExceeds(request.body, JSON_DEPTH_MAX)) {
    next(new ApiError('error.bad.request'));
    return;
  }
  next();
}

/**
 * The body parser's refusals as catalogue errors. It answers with `http-errors`: 400 for JSON that does not parse and
 * for a body that does not decompress (gzip announced, plain bytes sent; that one carries no `type` and was a 500),
 * 413 for a body over the limit, 415 for an encoding or a charset it does not read.
 */
function bodyParserRefusal(error: unknown, _request: Request, _response: Response, next: NextFunction): void {
  const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown };
  if (error instanceof ApiError || typeof status !== 'number' || status < 400 || status >= 500) {
    next(error);
    return;
  }
  if (status !== 415) next(new ApiError('error.bad.request', undefined, status));
  else if (type === 'encoding.unsupported') next(new ApiError('error.unsupported.content.encoding'));
  else next(new ApiError('error.unsupported.media.type'));
}

/** Whether a request brings body bytes: a declared length above zero, or a chunked body of unknown length. */
function bringsBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

/**
 * Refuses a body the JSON parser did not read because its `Content-Type` is not JSON (or missing): the route would
 * otherwise run as if no body had been sent (an export sent as `text/plain` ignored its filters and returned every
 * payment). Paths under `formPaths` also take a browser form's `application/x-www-form-urlencoded` post, which they
 * read nothing from. A request without body bytes is never refused, whatever it declares.
 */
function refuseOtherContentTypes(formPaths: readonly string[]) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const isForm = (): boolean =>
      request.is('application/x-www-form-urlencoded') !== false &&
      formPaths.some((prefix) => request.path.startsWith(prefix));
    if (bringsBody(request) && request.is('application/json') === false && !isForm()) {
      next(new ApiError('error.unsupported.media.type'));
      return;
    }
    next();
  };
}

/**
 * The JSON body parser with its size limit, its refusals as catalogue errors, then the content-type and depth guards
 * (docs/adr/0014-hostile-input.md, docs/adr/0059-edges-refuse-what-they-cannot-read.md). `formPaths` are the path
 * prefixes a browser form may post to.
 */
export function useJsonBodyParser(app: NestExpressApplication, formPaths: readonly string[] = []): void {
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.use(bodyParserRefusal);
  app.use(refuseOtherContentTypes(formPaths));
  app.use(refuseDeepJson);
  app.use(restoreInexactAmounts);
}
