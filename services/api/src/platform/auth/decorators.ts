import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { UserRole } from '@kupa/proto';
import type { Request } from 'express';
import { requestIdOf } from '../observability/request-id';
import type { Actor, RequestContext } from './actor';

export const IS_PUBLIC = 'kupa:isPublic';
export const ROLES = 'kupa:roles';
export const IS_READ = 'kupa:isRead';

/** Opts a route out of the global JWT guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Restricts a route to these roles (docs/product.md); routes without it are open to any signed-in role. */
export const Roles = (...roles: UserRole[]): MethodDecorator & ClassDecorator => SetMetadata(ROLES, roles);

/**
 * Marks a non-GET route that only reads (the portal's POST search routes), so a read-only view-as token may call it.
 * Everything else that is not a GET is refused to such a token.
 */
export const ReadOnlyRoute = (): MethodDecorator & ClassDecorator => SetMetadata(IS_READ, true);

type AuthedRequest = Request & { user?: Actor };

/** The request id (`X-Request-Id`, or generated) is the correlation id of every event the request appends. */
export function requestContextOf(request: AuthedRequest): RequestContext {
  return { actor: request.user ?? null, ip: request.ip ?? null, correlationId: requestIdOf(request) };
}

/** The signed-in actor (routes behind the guard only). */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthedRequest>();
  if (!request.user) throw new Error('CurrentActor used on a public route');
  return request.user;
});

/** Actor (or none), client ip and correlation id: what event metadata is made from. */
export const ReqContext = createParamDecorator((_data: unknown, context: ExecutionContext): RequestContext =>
  requestContextOf(context.switchToHttp().getRequest<AuthedRequest>()),
);
