import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { ChangeUserRoleCommand } from './change-user-role.command';
import { ChangeUserRoleRequestDto } from './change-user-role.request.dto';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class ChangeUserRoleController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':uuid/role')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  change(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() request: ChangeUserRoleRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<User> {
    return this.commands.execute(new ChangeUserRoleCommand(actor, userUuid, request.role, context));
  }
}
