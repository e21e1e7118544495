import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { SignInResponse } from '@kupa/proto';
import type { Response } from 'express';
import { Public } from '../../../../platform/auth';
import { SIGN_IN_LIMIT } from '../../infrastructure/rate-limits';
import { RateLimit, RateLimitGuard } from '../../../../platform/http';
import { Sessions } from '../../infrastructure/sessions';
import { SignInCommand } from './sign-in.command';
import type { SignInResult } from './sign-in.handler';
import { SignInRequestDto } from './sign-in.request.dto';

@ApiTags('auth')
@Controller('auth')
export class SignInController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: Sessions,
  ) {}

  @Public()
  @Post('signin')
  @HttpCode(200)
  @UseGuards(RateLimitGuard)
  @RateLimit(SIGN_IN_LIMIT)
  async signIn(
    @Body() request: SignInRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SignInResponse> {
    const result: SignInResult = await this.commands.execute(new SignInCommand(request));
    this.sessions.setRefreshCookie(response, result.refresh.token, result.refresh.expiresAt);
    return result.response;
  }
}
