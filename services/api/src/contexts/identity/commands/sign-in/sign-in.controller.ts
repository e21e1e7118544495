import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { deviceIdOf, newDeviceId, setDeviceCookie } from '../../infrastructure/sessions/user-sessions';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const deviceId = deviceIdOf(request) ?? newDeviceId();
    const origin = { deviceId, userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip ?? null };
    const result = await this.commands.execute(new SignInCommand(body, origin));
    setDeviceCookie(response, deviceId, this.config.publicUrl);
    this.sessions.setRefreshCookie(response, slot, result.refresh.token, result.refresh.expiresAt);
    return result.response;
  }
}
