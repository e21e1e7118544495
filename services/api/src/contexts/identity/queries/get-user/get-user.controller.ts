import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/params';
import { GetUserQuery } from './get-user.query';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class GetUserController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':uuid')
  get(@CurrentActor() actor: Actor, @Param('uuid', UserUuidPipe) userUuid: string): Promise<User> {
    return this.queries.execute(new GetUserQuery(actor, userUuid));
  }
}
