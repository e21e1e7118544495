import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Plan, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { PlanDto } from '../../infrastructure/catalog.responses';
import { PlanIdPipe } from '../../infrastructure/params';
import { GetPlanQuery } from './get-plan.query';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class GetPlanController {
  constructor(private readonly queries: QueryBus) {}

  /** Staff read any package; customers only ACTIVE ones (an INACTIVE one answers 404). */
  @Get(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: PlanDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles(...USER_ROLES)
  get(@CurrentActor() actor: Actor, @Param('id', PlanIdPipe) planId: string): Promise<Plan> {
    return this.queries.execute(new GetPlanQuery(actor, planId));
  }
}
