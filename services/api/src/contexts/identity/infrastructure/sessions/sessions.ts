import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiSecurity } from '@nestjs/swagger';
import { SESSION_APP_HEADER, SESSION_APPS, type SessionApp, type UserRole } from '@kupa/proto';
import type { CookieOptions, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import type { AccessTokenPayload } from '../../../../platform/auth';
import { ValidationFailedError } from '../../../../platform/http';
import type { SessionRef } from './refresh-tokens';

/** The cookie of callers that name no app; each UI's session lives in `kupa_refresh_<app>` (ADR 0009). */
export const REFRESH_COOKIE = 'kupa_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';
const REFRESH_TOKEN_MAX_LENGTH = 128;

/**
 * Which session a sign-in, refresh or logout is about: the app named by the `X-Kupa-App` header, or `null` for
 * callers that send none. Both UIs live on one origin and share the cookie jar; naming the app keeps a client's
 * session at `/` and a staff member's at `/admin` apart. An unknown app is bad input, not a third session.
 */
export type SessionSlot = SessionApp | null;

export function sessionSlotOf(request: Pick<Request, 'headers'>): SessionSlot {
  const header = request.headers[SESSION_APP_HEADER.toLowerCase()];
  if (header === undefined) return null;
  const app = SESSION_APPS.find((candidate) => candidate === header);
  if (!app) {
    throw new ValidationFailedError([{ field: SESSION_APP_HEADER, error: 'error.validation.invalid.field' }]);
  }
  return app;
}

/** Documents `X-Kupa-App` on sign-in, refresh and logout. */
export const SessionAppHeader = (): MethodDecorator =>
  ApiHeader({
    name: SESSION_APP_HEADER,
    required: false,
    enum: [...SESSION_APPS],
    description: `The UI whose session this is; each has its own refresh cookie. Without it: ${REFRESH_COOKIE}.`,
  });

/** Every refresh cookie: the unnamed one and one per app. */
export const REFRESH_COOKIES: readonly string[] = Object.freeze([
  REFRESH_COOKIE,
  ...SESSION_APPS.map((app) => `${REFRESH_COOKIE}_${app}`),
]);

/** The cookie security schemes of the OpenAPI document, one per refresh cookie. */
export const REFRESH_COOKIE_SCHEMES = REFRESH_COOKIES.map((name) => ({
  name,
  scheme: {
    type: 'apiKey' as const,
    in: 'cookie' as const,
    name,
    description: `The refresh token: httpOnly, SameSite=Lax, path ${REFRESH_COOKIE_PATH}; which one is read follows ${SESSION_APP_HEADER}`,
  },
}));

/**
 * Documents the refresh cookies as the credential of a route (any one of them, the one the app header names); an
 * optional one also lets callers without a cookie through.
 */
export const RefreshCookieAuth = (options: { optional?: boolean } = {}): MethodDecorator =>
  applyDecorators(...REFRESH_COOKIES.map((name) => ApiSecurity(name)), ...(options.optional ? [ApiSecurity({})] : []));

/** The `Set-Cookie` a session route answers with: it sets (or, on logout, clears) the app's refresh cookie. */
export function refreshCookieHeader(
  always: boolean,
): Record<string, { description: string; required: boolean; schema: { type: 'string' } }> {
  return {
    'Set-Cookie': {
      description: `The refresh cookie of the app named by ${SESSION_APP_HEADER} (${REFRESH_COOKIES.join(', ')})`,
      required: always,
      schema: { type: 'string' },
    },
  };
}

export function refreshCookieName(slot: SessionSlot): string {
  return slot === null ? REFRESH_COOKIE : `${REFRESH_COOKIE}_${slot}`;
}

/** Access tokens (JWT, 15 minutes) and the refresh cookie that carries the opaque refresh token. */
@Injectable()
export class Sessions {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  accessToken(user: { uuid: string; email: string; role: UserRole }, session: SessionRef): string {
    const payload: AccessTokenPayload = {
      sub: user.uuid,
      email: user.email,
      role: user.role,
      sid: session.familyId,
      sv: session.sessionVersion,
      tf: session.secondFactor,
    };
    return this.jwt.sign(payload);
  }

  private cookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      path: REFRESH_COOKIE_PATH,
      secure: this.config.publicUrl.startsWith('https://'),
    };
  }

  setRefreshCookie(response: Response, slot: SessionSlot, token: string, expiresAt: Date): void {
    response.cookie(refreshCookieName(slot), token, { ...this.cookieOptions(), expires: expiresAt });
  }

  clearRefreshCookie(response: Response, slot: SessionSlot): void {
    response.clearCookie(refreshCookieName(slot), this.cookieOptions());
  }
}

/** The refresh token of one app's session; another app's cookie in the same jar is never read. */
export function refreshTokenOf(request: { cookies?: Record<string, unknown> }, slot: SessionSlot): string | null {
  const value = request.cookies?.[refreshCookieName(slot)];
  return typeof value === 'string' && value.length > 0 && value.length <= REFRESH_TOKEN_MAX_LENGTH ? value : null;
}
