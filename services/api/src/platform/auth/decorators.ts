import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { UserRole } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Actor, RequestContext } from './actor';

export const IS_PUBLIC = 'kupa:isPublic';
export const ROLES = 'kupa:roles';

/** Opts a route out of the global JWT guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Restricts a route to these roles (docs/product.md); routes without it are open to any signed-in role. */
export const Roles = (...roles: UserRole[]): MethodDecorator & ClassDecorator => SetMetadata(ROLES, roles);

type AuthedRequest = Request & { user?: Actor; kupaCorrelationId?: string };

export function requestContextOf(request: AuthedRequest): RequestContext {
  if (!request.kupaCorrelationId) {
    const header = request.headers['x-correlation-id'];
    request.kupaCorrelationId = typeof header === 'string' && /^[\w-]{1,64}$/.test(header) ? header : randomUUID();
  }
  return { actor: request.user ?? null, ip: request.ip ?? null, correlationId: request.kupaCorrelationId };
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
