import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../../platform/http';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { TwoFactorCodeRequestDto } from '../activate-two-factor/two-factor-code.request.dto';
import { DisableTwoFactorCommand } from './disable-two-factor.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth/two-factor')
export class DisableTwoFactorController {
  constructor(private readonly commands: CommandBus) {}

  /** The owner, any role, with a fresh code: a step-up call (docs/adr/0098-client-two-factor-and-step-up.md). */
  @Post('deactivation')
  @ApiNoContentResponse({ description: 'Two-factor sign-in is off' })
  @ApiErrors(400, 401, 403, 409, 429)
  @HttpCode(204)
  async disable(
    @CurrentActor() actor: Actor,
    @Body() request: TwoFactorCodeRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new DisableTwoFactorCommand(actor, request.code, context));
  }
}
