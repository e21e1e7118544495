import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Plan } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { PlanDto } from '../../infrastructure/catalog.responses';
import { CreatePlanCommand } from './create-plan.command';
import { CreatePlanRequestDto } from './create-plan.request.dto';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class CreatePlanController {
  constructor(private readonly commands: CommandBus) {}

  /** Admins only; a name another package has is 409 `error.payment.plan.already.exists`. */
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: PlanDto })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  create(@Body() request: CreatePlanRequestDto, @ReqContext() context: RequestContext): Promise<Plan> {
    return this.commands.execute(new CreatePlanCommand(request, context));
  }
}
