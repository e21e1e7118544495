import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../../platform/http';
import { TwoFactorActivationDto } from '../../infrastructure/http/identity.responses';
import type { TwoFactorActivation } from '@kupa/proto';
import { type Actor, CurrentActor, Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { TwoFactorEnrolmentGuard } from '../../infrastructure/two-factor/two-factor-enrolment';
import { ActivateTwoFactorCommand } from './activate-two-factor.command';
import { TwoFactorCodeRequestDto } from './two-factor-code.request.dto';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth/two-factor')
export class ActivateTwoFactorController {
  constructor(private readonly commands: CommandBus) {}

  /** Any account with an access token, or staff with the enrolment token sign-in answered (`STAFF_2FA_REQUIRED`). */
  @Public()
  @UseGuards(TwoFactorEnrolmentGuard)
  @Post('activation')
  @ApiOkResponse({ type: TwoFactorActivationDto })
  @ApiErrors(400, 401, 403, 409, 429)
  @HttpCode(200)
  async activate(
    @CurrentActor() actor: Actor,
    @Body() request: TwoFactorCodeRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<TwoFactorActivation> {
    return this.commands.execute(new ActivateTwoFactorCommand(actor, request.code, context));
  }
}
