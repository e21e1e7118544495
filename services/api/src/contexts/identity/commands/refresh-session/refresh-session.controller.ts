import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { RefreshResponse } from '@kupa/proto';
import type { Request, Response } from 'express';
import { Public } from '../../../../platform/auth';
import {
  RefreshCookieAuth,
  refreshCookieHeader,
  refreshTokenOf,
  SessionAppHeader,
  Sessions,
  sessionSlotOf,
} from '../../infrastructure/sessions/sessions';
import { RefreshSessionCommand } from './refresh-session.command';
import { ApiErrors } from '../../../../platform/http';
import { RefreshResponseDto } from '../../infrastructure/http/identity.responses';

@ApiTags('auth')
@Controller('auth')
export class RefreshSessionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: Sessions,
  ) {}

  /**
   * Public: the access token is what has expired. The refresh cookie of the app named by `X-Kupa-App` is the
   * credential. A duplicate of a refresh that just ran keeps the cookie the other request set (ADR 0009).
   */
  @Public()
  @SessionAppHeader()
  @Post('token/refresh')
  @RefreshCookieAuth()
  @ApiOkResponse({ type: RefreshResponseDto, headers: refreshCookieHeader(false) })
  @ApiErrors(400, 401, 403)
  @HttpCode(200)
  async refresh(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RefreshResponse> {
    const slot = sessionSlotOf(request);
    const result = await this.commands.execute(new RefreshSessionCommand(refreshTokenOf(request, slot)));
    if (result.refresh) this.sessions.setRefreshCookie(response, slot, result.refresh.token, result.refresh.expiresAt);
    return { accessToken: result.accessToken };
  }
}
