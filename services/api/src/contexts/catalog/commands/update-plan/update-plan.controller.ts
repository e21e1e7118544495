import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Plan } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { PlanDto } from '../../infrastructure/catalog.responses';
import { PlanIdPipe } from '../../infrastructure/params';
import { UpdatePlanCommand } from './update-plan.command';
import { UpdatePlanRequestDto } from './update-plan.request.dto';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class UpdatePlanController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Admins only. A package a subscription refers to keeps its price and duration (409
   * `error.payment.plan.cannot.be.modified`); a name another package has is 409 `error.payment.plan.already.exists`.
   */
  @Put(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: PlanDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  update(
    @Param('id', PlanIdPipe) planId: string,
    @Body() request: UpdatePlanRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Plan> {
    return this.commands.execute(new UpdatePlanCommand(planId, request, context));
  }
}
