import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ChangePasswordCommand } from './change-password.command';
import { ChangePasswordRequestDto } from './change-password.request.dto';
import { ApiErrors } from '../../../../platform/http';

@ApiTags('password')
@ApiBearerAuth()
@Controller('password')
export class ChangePasswordController {
  constructor(private readonly commands: CommandBus) {}

  /** With two-factor sign-in on, a step-up call (docs/adr/0098-client-two-factor-and-step-up.md). */
  @Put()
  @ApiNoContentResponse({ description: 'Changed; every session of the user ends' })
  @ApiErrors(400, 401, 403, 429)
  @HttpCode(204)
  async change(
    @CurrentActor() actor: Actor,
    @Body() request: ChangePasswordRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new ChangePasswordCommand(actor, request, context));
  }
}
