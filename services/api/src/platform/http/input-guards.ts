import type { FieldError } from '@kupa/proto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error';

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

/** The JSON body parser with its size limit, followed by the depth guard (see docs/adr/0014-hostile-input.md). */
export function useJsonBodyParser(app: NestExpressApplication): void {
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  app.use(refuseDeepJson);
}
