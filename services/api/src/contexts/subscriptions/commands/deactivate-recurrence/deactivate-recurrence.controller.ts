import { Controller, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { DeactivateRecurrenceCommand } from './deactivate-recurrence.command';
import { DeactivateRecurrenceQueryDto } from './deactivate-recurrence.request.dto';

@ApiTags('subscriptions')
@ApiBearerAuth()
@Controller('subscriptions')
export class DeactivateRecurrenceController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The caller's subscriptions on the package stop renewing for good: UNSUBSCRIBED, usable to their end date, never
   * charged again. 404 `error.subscription.not.found` when the caller holds none on it that has not ended.
   */
  @Post('deactivate-recurrent')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Automatic renewal stopped' })
  @ApiErrors(400, 401, 403, 404)
  @Roles('CLIENT', 'AMBASSADOR')
  async deactivate(
    @CurrentActor() actor: Actor,
    @Query() query: DeactivateRecurrenceQueryDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new DeactivateRecurrenceCommand(actor, query.paymentPlanId, context));
  }
}
