import { Controller, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../../platform/http';
import { TwoFactorEnrolmentDto } from '../../infrastructure/http/identity.responses';
import type { TwoFactorEnrolment } from '@kupa/proto';
import { type Actor, CurrentActor, Public } from '../../../../platform/auth';
import { TwoFactorEnrolmentGuard } from '../../infrastructure/two-factor/two-factor-enrolment';
import { StartTwoFactorEnrolmentCommand } from './start-two-factor-enrolment.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth/two-factor')
export class StartTwoFactorEnrolmentController {
  constructor(private readonly commands: CommandBus) {}

  /** Any account with an access token, or staff with the enrolment token sign-in answered (`STAFF_2FA_REQUIRED`). */
  @Public()
  @UseGuards(TwoFactorEnrolmentGuard)
  @Post('enrolment')
  @ApiCreatedResponse({ type: TwoFactorEnrolmentDto })
  @ApiErrors(400, 401, 403, 409)
  async start(@CurrentActor() actor: Actor): Promise<TwoFactorEnrolment> {
    return this.commands.execute(new StartTwoFactorEnrolmentCommand(actor));
  }
}
