import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { UserRole } from '@kupa/proto';
import passport from 'passport';
import type { Strategy } from 'passport';
import { ApiError } from '../http/api-error';
import { type Actor, ViewAsRecorder } from './actor';
import { IS_PUBLIC, IS_READ, ROLES } from './decorators';
import { requestIdOf } from '../observability/request-id';
import { JwtStrategy } from './jwt.strategy';

type Verdict = (error: unknown, user: Actor | false, info: unknown) => Actor | undefined;

/**
 * Runs passport with this application's own JWT strategy, not the one registered process-wide under `jwt`:
 * `@nestjs/passport`'s `AuthGuard('jwt')` looks the strategy up by name in passport's one registry, where the last
 * application built wins, so a second application in the same process (tests, a second API on the same database)
 * answered the first's requests with its own database pool, and with a 500 once it was closed. A fresh object on
 * the strategy per request, as passport makes from a registered one, keeps concurrent requests apart.
 */
function authenticate(strategy: JwtStrategy, context: ExecutionContext, verdict: Verdict): Promise<Actor | undefined> {
  const http = context.switchToHttp();
  const request = http.getRequest<{ user?: Actor; authInfo?: unknown }>();
  return new Promise<Actor | undefined>((resolve, reject) => {
    const middleware = passport.authenticate(
      Object.create(strategy) as Strategy,
      { session: false },
      (error: unknown, user: Actor | false, info: unknown) => {
        try {
          request.authInfo = info;
          resolve(verdict(error, user, info));
        } catch (failure) {
          reject(failure as Error);
        }
      },
    ) as (request: unknown, response: unknown, next: (error?: unknown) => void) => void;
    middleware(request, http.getResponse(), (error?: unknown) => (error ? reject(error as Error) : resolve(undefined)));
  }).then((user) => {
    request.user = user;
    return user;
  });
}

/** Global: every route needs a valid access token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    await authenticate(this.strategy, context, (error, user, info) => this.handleRequest(error, user, info));
    return true;
  }

  handleRequest(error: unknown, user: Actor | false, info: unknown): Actor {
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
export class OptionalJwtAuthGuard implements CanActivate {
  constructor(private readonly strategy: JwtStrategy) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await authenticate(this.strategy, context, (_error, user) => user || undefined);
    return true;
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

const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request made with a view-as token may go on: reads only, or a route marked `@ReadOnlyRoute()`. */
export function viewAsMayCall(method: string, markedAsRead: boolean): boolean {
  return READING_METHODS.has(method.toUpperCase()) || markedAsRead;
}

/**
 * Global, after the JWT guard: a view-as token (ADR 0092) reads and never writes, whatever the route, so a route added
 * later cannot forget the rule. Each request made with one, refused or not, is recorded in the client's activity log.
 */
@Injectable()
export class ViewAsReadOnlyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly recorder: ViewAsRecorder,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<{ user?: Actor; method: string; path: string; ip?: string; headers: Record<string, unknown> }>();
    const actor = request.user;
    if (!actor?.viewAs) return true;
    const markedAsRead =
      this.reflector.getAllAndOverride<boolean>(IS_READ, [context.getHandler(), context.getClass()]) === true;
    await this.recorder.recordRequest(
      actor,
      `${request.method.toUpperCase()} ${request.path}`,
      request.ip ?? null,
      requestIdOf(request as never),
    );
    if (!viewAsMayCall(request.method, markedAsRead)) throw new ApiError('error.view.as.read.only');
    return true;
  }
}
