import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { PlanIdPipe } from '../../infrastructure/params';
import { DeletePlanCommand } from './delete-plan.command';

@ApiTags('payment-plans')
@ApiBearerAuth()
@Controller('payment-plans')
export class DeletePlanController {
  constructor(private readonly commands: CommandBus) {}

  /** Admins only; a package a subscription refers to stays (409 `error.payment.plan.cannot.be.deleted`). */
  @Delete(':id')
  @ApiUuidParam('id')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  @HttpCode(204)
  async delete(@Param('id', PlanIdPipe) planId: string, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new DeletePlanCommand(planId, context));
  }
}
