import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type GeneratedVoucherBatch, parseAmountToMinor } from '@kupa/proto';
import { assert } from '../../../../kernel';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { GeneratedVoucherBatchDto } from '../../infrastructure/voucher.responses';
import { GenerateVoucherBatchCommand } from './generate-voucher-batch.command';
import { GenerateVoucherBatchRequestDto } from './generate-voucher-batch.request.dto';

@ApiTags('vouchers')
@ApiBearerAuth()
@Controller('vouchers/batches')
export class GenerateVoucherBatchController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiOperation({
    summary:
      'Generate a batch of one-time voucher codes, money or days of a package (admins); the answer shows the codes',
  })
  @ApiCreatedResponse({ type: GeneratedVoucherBatchDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN')
  generate(
    @Body() request: GenerateVoucherBatchRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<GeneratedVoucherBatch> {
    const label = request.label.trim();
    if (request.kind === 'DAYS') {
      const daysOf = { days: request.days as number, planId: request.planId as string };
      return this.commands.execute(new GenerateVoucherBatchCommand(label, request.count, 0, daysOf, context));
    }
    const amount = parseAmountToMinor(request.amount);
    assert(amount.ok, 'the DTO accepted only valid amounts');
    return this.commands.execute(
      new GenerateVoucherBatchCommand(label, request.count, amount.amountMinor, null, context),
    );
  }
}
