import { Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { RejectTrialCommand } from './reject-trial.command';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class RejectTrialController {
  constructor(private readonly commands: CommandBus) {}

  @Put('trial-reject')
  @Roles('CLIENT', 'AMBASSADOR')
  @HttpCode(204)
  async reject(@CurrentActor() actor: Actor, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new RejectTrialCommand(actor, context));
  }
}
