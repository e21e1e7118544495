import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { isStaffRole, type UserSessionView } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ApiError, ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { UserSessionDto } from '../../infrastructure/sessions/sessions.http';
import { UserSessions } from '../../infrastructure/sessions/user-sessions';
import { UserReader } from '../../projections/users/user-reader';

/**
 * The live sessions of the signed-in user, and, for admins and managers, of a client (ADR 0099). Registered before
 * `/users/:uuid`, so that "me" is not read as a uuid.
 */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class ListSessionsController {
  constructor(
    private readonly sessions: UserSessions,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  @Get('me/sessions')
  @ApiOkResponse({ type: UserSessionDto, isArray: true })
  @ApiErrors(400, 401, 403)
  mine(@CurrentActor() actor: Actor): Promise<UserSessionView[]> {
    return this.sessions.list(actor.userUuid, actor.sessionId ?? null, this.clock.now());
  }

  /** A client's sessions on their page in the console; a staff account's are not shown here (404). */
  @Get(':uuid/sessions')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: UserSessionDto, isArray: true })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  async ofClient(@Param('uuid', UserUuidPipe) userUuid: string): Promise<UserSessionView[]> {
    const user = await this.users.findByUuid(userUuid);
    if (!user || isStaffRole(user.role)) throw new ApiError('error.user.not.found');
    return this.sessions.list(userUuid, null, this.clock.now());
  }
}
