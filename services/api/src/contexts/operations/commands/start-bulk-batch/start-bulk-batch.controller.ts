import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type BulkBatch, type BulkPreview, parseAmountToMinor } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader, parseIdempotencyKey } from '../../../../platform/idempotency';
import { BulkSelections, bulkSelectionOf } from '../../application/bulk-selections';
import { BulkBatchDto, BulkPreviewDto } from '../../infrastructure/bulk.responses';
import { BulkSelectionRequestDto } from './bulk-selection.request.dto';
import { StartBulkBatchCommand } from './start-bulk-batch.command';
import { StartBulkBatchRequestDto } from './start-bulk-batch.request.dto';

@ApiTags('bulk-operations')
@ApiBearerAuth()
@Controller('bulk-operations')
export class StartBulkBatchController {
  constructor(
    private readonly commands: CommandBus,
    private readonly selections: BulkSelections,
  ) {}

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'How many targets a selection matches now, and the first few (admins)' })
  @ApiOkResponse({ type: BulkPreviewDto })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  preview(@Body() request: BulkSelectionRequestDto): Promise<BulkPreview> {
    return this.selections.preview(
      request.action,
      bulkSelectionOf(request.action, request.filter, request.subscriptionFilter),
    );
  }

  @Post()
  @ApiOperation({ summary: 'Freeze the selection and start the batch in the background (admins)' })
  @ApiCreatedResponse({
    type: BulkBatchDto,
    description: 'The batch; a repeat with the same `Idempotency-Key` answers the same batch',
  })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  @AcceptsIdempotencyKey()
  start(
    @CurrentActor() actor: Actor,
    @Body() request: StartBulkBatchRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<BulkBatch> {
    const amount = request.amount === undefined ? null : parseAmountToMinor(request.amount);
    return this.commands.execute(
      new StartBulkBatchCommand(
        actor,
        request.action,
        bulkSelectionOf(request.action, request.filter, request.subscriptionFilter),
        request.reason.trim(),
        request.publicNote ?? null,
        amount?.ok ? amount.amountMinor : null,
        request.days ?? null,
        parseIdempotencyKey(idempotencyKeyHeader),
        context,
      ),
    );
  }
}
