import { Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { RejectTrialCommand } from './reject-trial.command';
import { ApiErrors } from '../../../../platform/http';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class RejectTrialController {
  constructor(private readonly commands: CommandBus) {}

  @Put('trial-reject')
  @ApiNoContentResponse({ description: 'The trial offer is declined' })
  @ApiErrors(400, 401, 403, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  @HttpCode(204)
  async reject(@CurrentActor() actor: Actor, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new RejectTrialCommand(actor, context));
  }
}
