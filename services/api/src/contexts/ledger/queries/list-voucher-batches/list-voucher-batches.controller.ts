import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { minorToAmount, type VoucherBatchList } from '@kupa/proto';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Roles } from '../../../../platform/auth';
import { ApiError, ApiErrors, ApiUuidParam, CanonicalUuidPipe } from '../../../../platform/http';
import { findVoucherBatch, listVoucherBatches, redemptionsOf } from '../../infrastructure/voucher-batches.reader';
import { VoucherCodes } from '../../infrastructure/voucher-codes';
import { VoucherBatchListDto } from '../../infrastructure/voucher.responses';
import { csvLine, UTF8_BOM } from '../export-payments/csv';

/** The console's view of vouchers: every batch with what it still owes, and a batch's codes as a CSV file. */
@ApiTags('vouchers')
@ApiBearerAuth()
@Controller('vouchers/batches')
export class ListVoucherBatchesController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly codes: VoucherCodes,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every voucher batch, newest first, with the outstanding liability (admins)' })
  @ApiOkResponse({ type: VoucherBatchListDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @Header('Cache-Control', 'no-store')
  async list(): Promise<VoucherBatchList> {
    const { items, outstandingTotalMinor } = await listVoucherBatches(this.dataSource.manager);
    return { items, outstandingTotal: minorToAmount(outstandingTotalMinor) };
  }

  /** Codes are redeemable money: the file is made on request from the sealed codes and never cached. */
  @Get(':id/codes.csv')
  @ApiOperation({ summary: "A batch's codes as a CSV file: code, amount, redeemed at, redeemed by (admins)" })
  @ApiOkResponse({
    description: 'A UTF-8 CSV file with a byte order mark',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401, 403, 404)
  @ApiUuidParam('id', 'The batch')
  @Roles('ADMIN')
  async exportCodes(
    @Param('id', CanonicalUuidPipe('error.voucher.batch.not.found')) batchId: string,
    @Res() response: Response,
  ): Promise<void> {
    const manager = this.dataSource.manager;
    const batch = await findVoucherBatch(manager, batchId);
    if (!batch) throw new ApiError('error.voucher.batch.not.found');
    const [codes, redemptions] = await Promise.all([
      this.codes.codesOf(manager, batchId),
      redemptionsOf(manager, batchId),
    ]);
    const lines = [csvLine(['code', 'amount', 'redeemedAt', 'redeemedBy'])];
    codes.forEach((code, index) => {
      const redeemed = redemptions.get(index);
      lines.push(csvLine([code, batch.amount.toFixed(2), redeemed?.redeemedAt ?? null, redeemed?.userEmail ?? null]));
    });
    response.status(200);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="vouchers-${batchId}.csv"`);
    response.setHeader('Cache-Control', 'no-store');
    response.send(UTF8_BOM + lines.join(''));
  }
}
