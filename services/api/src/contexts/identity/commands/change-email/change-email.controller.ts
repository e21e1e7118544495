import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { EMAIL_CHANGE_LIMITS } from '../../infrastructure/http/rate-limits';
import { ChangeEmailCommand } from './change-email.command';
import { ChangeEmailRequestDto } from './change-email.request.dto';

@ApiTags('email')
@ApiBearerAuth()
@Controller('email')
export class ChangeEmailController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Any signed-in account, staff included, for itself; with two-factor sign-in on, a step-up call
   * (docs/adr/0100-change-of-e-mail.md). It sends mail to an address the caller names, so it is limited per account.
   */
  @Post()
  @ApiNoContentResponse({ description: 'Asked: a link goes to the new address, a notice to the current one' })
  @ApiErrors(400, 401, 403, 409, 429)
  @HttpCode(204)
  @RateLimit(EMAIL_CHANGE_LIMITS)
  async change(
    @CurrentActor() actor: Actor,
    @Body() request: ChangeEmailRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new ChangeEmailCommand(actor, request, context));
  }
}
