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

  /**
   * An admin resets a staff member's or a client's two-factor sign-in (a lost phone); the client is told by mail
   * (docs/adr/0003-staff-guard-rails.md, docs/adr/0098-client-two-factor-and-step-up.md).
   */
  @Delete(':uuid/two-factor')
  @ApiUuidParam('uuid')
  @ApiNoContentResponse({ description: "The account's two-factor sign-in is off" })
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
