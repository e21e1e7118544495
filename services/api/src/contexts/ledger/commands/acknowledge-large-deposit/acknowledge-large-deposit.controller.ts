import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiPaymentIdParam } from '../../../../platform/http';
import { PaymentIdPipe } from '../../infrastructure/params';
import { AcknowledgeLargeDepositCommand } from './acknowledge-large-deposit.command';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class AcknowledgeLargeDepositController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/large-deposit-acknowledgement')
  @HttpCode(204)
  @ApiPaymentIdParam('id')
  @ApiNoContentResponse({ description: 'Marked seen (or already seen): it leaves the dashboard queue' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN')
  @ApiOperation({
    summary: "Marks a large deposit in the dashboard's queue as seen by the caller; a second mark changes nothing",
  })
  async acknowledge(
    @Param('id', PaymentIdPipe) paymentId: number,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new AcknowledgeLargeDepositCommand(paymentId, context));
  }
}
