import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, Public } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ApiError, ApiErrors, ApiUuidParam, RateLimit } from '../../../../platform/http';
import { SIGN_IN_LIMITS } from '../../infrastructure/http/rate-limits';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { EndedSessionsDto, SessionEndLinkRequestDto, SessionIdPipe } from '../../infrastructure/sessions/sessions.http';
import { UserSessions } from '../../infrastructure/sessions/user-sessions';

/**
 * Ending sessions (ADR 0099): the owner ends one of theirs or every other one; the new-device mail's link ends the
 * session it names without signing in. An ended session's refresh token and access tokens are refused at once.
 */
@ApiTags('users')
@Controller()
export class EndSessionController {
  constructor(
    private readonly refreshTokens: RefreshTokens,
    private readonly sessions: UserSessions,
    private readonly clock: Clock,
  ) {}

  /** Every session of the caller but the one making the request. */
  @Delete('users/me/sessions')
  @ApiBearerAuth()
  @ApiOkResponse({ type: EndedSessionsDto })
  @ApiErrors(400, 401, 403)
  @HttpCode(200)
  async endOthers(@CurrentActor() actor: Actor): Promise<EndedSessionsDto> {
    const ended = await this.refreshTokens.endOtherSessions(actor.userUuid, actor.sessionId ?? null, this.clock.now());
    return { ended };
  }

  /** One session of the caller's, the current one included (that is signing out). Another user's: 404. */
  @Delete('users/me/sessions/:id')
  @ApiBearerAuth()
  @ApiUuidParam('id')
  @ApiNoContentResponse({ description: 'The session ended' })
  @ApiErrors(400, 401, 403, 404)
  @HttpCode(204)
  async endOne(@CurrentActor() actor: Actor, @Param('id', SessionIdPipe) sessionId: string): Promise<void> {
    const ended = await this.refreshTokens.endSession(actor.userUuid, sessionId, this.clock.now());
    if (ended === null) throw new ApiError('error.session.not.found');
  }

  /** No sign-in: the signed token names the session. Once it ended, the link is spent. */
  @Public()
  @Post('sessions/end-link')
  @ApiNoContentResponse({ description: 'The session the link names ended' })
  @ApiErrors(400, 429)
  @RateLimit(SIGN_IN_LIMITS)
  @HttpCode(204)
  async endByLink(@Body() body: SessionEndLinkRequestDto): Promise<void> {
    const sessionId = this.sessions.sessionOfEndLink(body.token);
    const ended = sessionId === null ? null : await this.refreshTokens.endSession(null, sessionId, this.clock.now());
    if (ended === null) throw new ApiError('error.session.end.link.invalid');
  }
}
