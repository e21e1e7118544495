import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { UserRole } from '@kupa/proto';
import { ApiError } from '../http/api-error';
import type { Actor } from './actor';
import { IS_PUBLIC, ROLES } from './decorators';

/** Global: every route needs a valid access token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  override handleRequest<TUser = Actor>(error: unknown, user: TUser | false, info: unknown): TUser {
    if (error) throw error;
    if (!user) {
      const reason = info instanceof Error ? info.name : '';
      // An expired token is a session matter (the UI refreshes); a malformed or forged one is invalid.
      throw new ApiError(reason === 'JsonWebTokenError' ? 'error.token.invalid' : 'error.session.expired');
    }
    return user;
  }
}

/**
 * For a public route that also serves a signed-in caller differently: the actor when a valid access token came with
 * the request, otherwise no actor and no refusal (a missing, expired or forged token reads as anonymous).
 */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<TUser = Actor>(_error: unknown, user: TUser | false): TUser {
    return (user || undefined) as TUser;
  }
}

/** Global, after the JWT guard: enforces @Roles() (docs/product.md, Permissions). */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<UserRole[] | undefined>(ROLES, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!roles || roles.length === 0) return true;
    const request = context.switchToHttp().getRequest<{ user?: Actor }>();
    if (!request.user) return true;
    if (!roles.includes(request.user.role)) throw new ApiError('error.access.forbidden');
    return true;
  }
}
