import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parseAmountToMinor, type VoucherBatch } from '@kupa/proto';
import { assert } from '../../../../kernel';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam, CanonicalUuidPipe } from '../../../../platform/http';
import { VoucherBatchDto } from '../../infrastructure/voucher.responses';
import { FundVoucherBatchCommand } from './fund-voucher-batch.command';
import { FundVoucherBatchRequestDto } from './fund-voucher-batch.request.dto';

@ApiTags('vouchers')
@ApiBearerAuth()
@Controller('vouchers/batches')
export class FundVoucherBatchController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/funding')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record a voucher batch as sold or given away (admins); once per batch' })
  @ApiOkResponse({ type: VoucherBatchDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @ApiUuidParam('id', 'The batch')
  @Roles('ADMIN')
  fund(
    @Param('id', CanonicalUuidPipe('error.voucher.batch.not.found')) batchId: string,
    @Body() request: FundVoucherBatchRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<VoucherBatch> {
    let receivedMinor: number | null = null;
    if (request.amount !== undefined) {
      const received = parseAmountToMinor(request.amount);
      assert(received.ok, 'the DTO accepted only valid amounts');
      receivedMinor = received.amountMinor;
    }
    return this.commands.execute(
      new FundVoucherBatchCommand(batchId, request.funding, request.comment.trim(), receivedMinor, context),
    );
  }
}
