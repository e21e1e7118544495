import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor } from '../../../../platform/auth';
import { GetUserQuery } from '../get-user/get-user.query';

/** `/users/me` is the signed-in user's own record; registered before `/users/:uuid` so that "me" is not a uuid. */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class GetCurrentUserController {
  constructor(private readonly queries: QueryBus) {}

  @Get('me')
  me(@CurrentActor() actor: Actor): Promise<User> {
    return this.queries.execute(new GetUserQuery(actor, actor.userUuid));
  }
}
