import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { UserRole } from '@kupa/proto';
import type { CookieOptions, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import type { AccessTokenPayload } from '../../../platform/auth';

export const REFRESH_COOKIE = 'kupa_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';

/** Access tokens (JWT, 15 minutes) and the refresh cookie that carries the opaque refresh token. */
@Injectable()
export class Sessions {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  accessToken(user: { uuid: string; email: string; role: UserRole }): string {
    const payload: AccessTokenPayload = { sub: user.uuid, email: user.email, role: user.role };
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

  setRefreshCookie(response: Response, token: string, expiresAt: Date): void {
    response.cookie(REFRESH_COOKIE, token, { ...this.cookieOptions(), expires: expiresAt });
  }

  clearRefreshCookie(response: Response): void {
    response.clearCookie(REFRESH_COOKIE, this.cookieOptions());
  }
}

export function refreshTokenOf(request: { cookies?: Record<string, unknown> }): string | null {
  const value = request.cookies?.[REFRESH_COOKIE];
  return typeof value === 'string' && value.length > 0 && value.length <= 128 ? value : null;
}
