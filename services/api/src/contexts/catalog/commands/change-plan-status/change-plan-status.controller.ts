import { Body, Controller, Param, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Plan } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { PlanDto } from '../../infrastructure/catalog.responses';
import { PlanIdPipe } from '../../infrastructure/params';
import { ChangePlanStatusCommand } from './change-plan-status.command';
import { ChangePlanStatusRequestDto } from './change-plan-status.request.dto';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class ChangePlanStatusController {
  constructor(private readonly commands: CommandBus) {}

  /** Admins only; any package may be taken out of sale (INACTIVE) or offered again, referenced or not. */
  @Put(':id/status')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: PlanDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN')
  change(
    @Param('id', PlanIdPipe) planId: string,
    @Body() request: ChangePlanStatusRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Plan> {
    return this.commands.execute(new ChangePlanStatusCommand(planId, request.status, context));
  }
}
