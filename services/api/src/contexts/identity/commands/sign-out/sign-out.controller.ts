import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
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
import { SignOutCommand } from './sign-out.command';
import { ApiErrors } from '../../../../platform/http';

@ApiTags('auth')
@Controller('auth')
export class SignOutController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: Sessions,
  ) {}

  /**
   * Public so that a user whose access token already expired can still end the session. Only the session of the app
   * named by `X-Kupa-App` ends: signing out of the console leaves a client signed in at `/` in the same browser.
   */
  @Public()
  @SessionAppHeader()
  @Post('logout')
  @RefreshCookieAuth({ optional: true })
  @ApiNoContentResponse({
    description: 'The session ended and its cookie is cleared',
    headers: refreshCookieHeader(false),
  })
  @ApiErrors(400)
  @HttpCode(204)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    const slot = sessionSlotOf(request);
    await this.commands.execute(new SignOutCommand(refreshTokenOf(request, slot)));
    this.sessions.clearRefreshCookie(response, slot);
  }
}
