import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { SetUserPasswordCommand } from './set-user-password.command';
import { SetUserPasswordRequestDto } from './set-user-password.request.dto';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';

@ApiTags('password')
@ApiBearerAuth()
@Controller('password')
export class SetUserPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Put('users/:uuid')
  @ApiUuidParam('uuid')
  @ApiNoContentResponse({ description: 'The password is set; every session of the user ends' })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(204)
  async set(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() request: SetUserPasswordRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new SetUserPasswordCommand(actor, userUuid, request.password, context));
  }
}
