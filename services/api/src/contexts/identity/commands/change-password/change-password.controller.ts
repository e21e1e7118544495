import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ChangePasswordCommand } from './change-password.command';
import { ChangePasswordRequestDto } from './change-password.request.dto';

@ApiTags('password')
@ApiBearerAuth()
@Controller('password')
export class ChangePasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Put()
  @HttpCode(204)
  async change(
    @CurrentActor() actor: Actor,
    @Body() request: ChangePasswordRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new ChangePasswordCommand(actor, request, context));
  }
}
