import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor } from '../../../../platform/auth';
import { GetUserQuery } from '../get-user/get-user.query';
import { ApiErrors } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

/** `/users/me` is the signed-in user's own record; registered before `/users/:uuid` so that "me" is not a uuid. */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class GetCurrentUserController {
  constructor(private readonly queries: QueryBus) {}

  @Get('me')
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400, 401, 403)
  me(@CurrentActor() actor: Actor): Promise<User> {
    return this.queries.execute(new GetUserQuery(actor, actor.userUuid));
  }
}
