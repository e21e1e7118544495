import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import type { FieldError } from '@kupa/proto';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ValidationFailedError } from './api-error';

const TAKES_BODY = 'kupa:takesBody';

/**
 * Marks a route that reads the request body itself although it has no `@Body()` or `@RawBody()` parameter (a
 * signed webhook reading `request.rawBody`), so that `BodilessRouteInterceptor` leaves its body alone. Document
 * that body with `@ApiBody()`: the route matrix expects every operation without one to refuse a body.
 */
export const TakesBody = (): MethodDecorator => SetMetadata(TAKES_BODY, true);

/** The code a DTO route gives a field it does not know (see `validation.ts`). */
const UNKNOWN_FIELD = 'error.validation.unknown.field' as const;

const BODY_PARAMETER_TYPES = new Set<number>([RouteParamtypes.BODY, RouteParamtypes.RAW_BODY]);

/**
 * Unknown body fields are refused on every route (docs/api.md, Validation), not only on those whose DTO the validation
 * pipe checks: a route that declares no body answers a non-empty JSON body with the same 400 and per-field
 * `error.validation.unknown.field` a DTO route gives, before its handler runs. As an interceptor it runs after the
 * guards, so an anonymous or unauthorised caller still gets 401/403 first, exactly as on DTO routes.
 */
@Injectable()
export class BodilessRouteInterceptor implements NestInterceptor {
  /** Whether a handler takes a body, decided once per handler: its parameters never change at run time. */
  private readonly takesBody = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http' && !this.declaresBody(context)) {
      const fields = unexpectedFields(context.switchToHttp().getRequest<Request>().body);
      if (fields.length > 0) throw new ValidationFailedError(fields);
    }
    return next.handle();
  }

  private declaresBody(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.takesBody.get(handler);
    if (known === undefined) {
      const parameters =
        (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) as Record<string, unknown>) ?? {};
      // Nest keys route parameters as `${paramtype}:${index}`.
      const hasBodyParameter = Object.keys(parameters).some((key) =>
        BODY_PARAMETER_TYPES.has(Number(key.split(':')[0])),
      );
      known = hasBodyParameter || this.reflector.get<boolean>(TAKES_BODY, handler) === true;
      this.takesBody.set(handler, known);
    }
    return known;
  }
}

/**
 * The fields of a body sent to a route that takes none. No body and an empty JSON object are fine (some clients
 * always send `{}`); the JSON parser only yields objects and arrays, and a non-empty array is refused as a whole.
 */
function unexpectedFields(body: unknown): FieldError[] {
  if (body === undefined || body === null) return [];
  if (Array.isArray(body)) return body.length === 0 ? [] : [{ field: 'body', error: UNKNOWN_FIELD }];
  if (typeof body === 'object') {
    return Object.keys(body).map((field) => ({ field, error: UNKNOWN_FIELD }));
  }
  return [{ field: 'body', error: UNKNOWN_FIELD }];
}
