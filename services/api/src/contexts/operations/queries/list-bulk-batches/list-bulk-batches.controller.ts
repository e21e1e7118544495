import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BulkBatch, BulkBatchList } from '@kupa/proto';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Roles } from '../../../../platform/auth';
import { ApiError, ApiErrors, ApiUuidParam, CanonicalUuidPipe } from '../../../../platform/http';
import { findBulkBatch, listBulkBatches, targetResultsOf } from '../../infrastructure/bulk-batches.store';
import { BulkBatchDto, BulkBatchListDto } from '../../infrastructure/bulk.responses';
import { bulkResultsCsv } from './bulk-results-csv';

/** How many batches the list shows: the newest. */
const LISTED_BATCHES = 100;

/** The console's view of bulk operations: the list, one batch's progress (polled while it runs), its results. */
@ApiTags('bulk-operations')
@ApiBearerAuth()
@Controller('bulk-operations')
export class ListBulkBatchesController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ summary: 'The newest bulk operations first, with their progress (admins)' })
  @ApiOkResponse({ type: BulkBatchListDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @Header('Cache-Control', 'no-store')
  async list(): Promise<BulkBatchList> {
    return { items: await listBulkBatches(this.dataSource.manager, LISTED_BATCHES) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One bulk operation and its progress (admins)' })
  @ApiOkResponse({ type: BulkBatchDto })
  @ApiErrors(400, 401, 403, 404)
  @ApiUuidParam('id', 'The batch')
  @Roles('ADMIN')
  @Header('Cache-Control', 'no-store')
  async get(@Param('id', CanonicalUuidPipe('error.bulk.batch.not.found')) batchId: string): Promise<BulkBatch> {
    const batch = await findBulkBatch(this.dataSource.manager, batchId);
    if (!batch) throw new ApiError('error.bulk.batch.not.found');
    return batch;
  }

  @Get(':id/results.csv')
  @ApiOperation({ summary: "A bulk operation's outcome per target as a CSV file (admins)" })
  @ApiOkResponse({
    description: 'A UTF-8 CSV file with a byte order mark: target, label, outcome, result, error, settled at',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401, 403, 404)
  @ApiUuidParam('id', 'The batch')
  @Roles('ADMIN')
  async results(
    @Param('id', CanonicalUuidPipe('error.bulk.batch.not.found')) batchId: string,
    @Res() response: Response,
  ): Promise<void> {
    const manager = this.dataSource.manager;
    if (!(await findBulkBatch(manager, batchId))) throw new ApiError('error.bulk.batch.not.found');
    response.status(200);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="bulk-${batchId}.csv"`);
    response.setHeader('Cache-Control', 'no-store');
    response.send(bulkResultsCsv(await targetResultsOf(manager, batchId)));
  }
}
