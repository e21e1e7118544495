import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { UpdateUserCommand } from './update-user.command';
import { UpdateUserRequestDto } from './update-user.request.dto';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class UpdateUserController {
  constructor(private readonly commands: CommandBus) {}

  /** Staff edit anyone's name; a client or ambassador edits only their own. */
  @Put(':uuid')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400, 401, 403, 404)
  update(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() request: UpdateUserRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<User> {
    return this.commands.execute(new UpdateUserCommand(actor, userUuid, request, context));
  }
}
