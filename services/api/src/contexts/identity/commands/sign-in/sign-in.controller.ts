import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { SignInResponse } from '@kupa/proto';
import type { Request, Response } from 'express';
import { Public } from '../../../../platform/auth';
import { SIGN_IN_LIMITS } from '../../infrastructure/http/rate-limits';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { refreshCookieHeader, SessionAppHeader, Sessions, sessionSlotOf } from '../../infrastructure/sessions/sessions';
import { SignInCommand } from './sign-in.command';
import { SignInRequestDto } from './sign-in.request.dto';
import { SignInResponseDto } from '../../infrastructure/http/identity.responses';

@ApiTags('auth')
@Controller('auth')
export class SignInController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: Sessions,
  ) {}

  @Public()
  @SessionAppHeader()
  @Post('signin')
  @ApiOkResponse({ type: SignInResponseDto, headers: refreshCookieHeader(true) })
  @ApiErrors(400, 401, 403, 429)
  @HttpCode(200)
  @RateLimit(SIGN_IN_LIMITS)
  async signIn(
    @Body() body: SignInRequestDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SignInResponse> {
    // The app is checked first: a refused header must not leave behind a session that no cookie carries.
    const slot = sessionSlotOf(request);
    const result = await this.commands.execute(new SignInCommand(body));
    this.sessions.setRefreshCookie(response, slot, result.refresh.token, result.refresh.expiresAt);
    return result.response;
  }
}
