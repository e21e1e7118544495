import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { GetUserQuery } from './get-user.query';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class GetUserController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':uuid')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400, 401, 403, 404)
  get(@CurrentActor() actor: Actor, @Param('uuid', UserUuidPipe) userUuid: string): Promise<User> {
    return this.queries.execute(new GetUserQuery(actor, userUuid));
  }
}
