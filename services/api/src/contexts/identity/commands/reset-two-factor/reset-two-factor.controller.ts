import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { ResetTwoFactorCommand } from './reset-two-factor.command';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class ResetTwoFactorController {
  constructor(private readonly commands: CommandBus) {}

  /** Two-factor sign-in is for staff, and only an admin administers staff accounts (docs/adr/0003-staff-guard-rails.md). */
  @Delete(':uuid/two-factor')
  @ApiUuidParam('uuid')
  @ApiNoContentResponse({ description: "The staff member's two-factor sign-in is off" })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  @HttpCode(204)
  async reset(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new ResetTwoFactorCommand(actor, userUuid, context));
  }
}
