import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../../platform/auth';
import { refreshTokenOf, Sessions } from '../../infrastructure/sessions';
import { SignOutCommand } from './sign-out.command';

@ApiTags('auth')
@Controller('auth')
export class SignOutController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: Sessions,
  ) {}

  /** Public so that a user whose access token already expired can still end the session. */
  @Public()
  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.commands.execute(new SignOutCommand(refreshTokenOf(request)));
    this.sessions.clearRefreshCookie(response);
  }
}
