import { Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ReceiptList } from '@kupa/proto';
import type { Response } from 'express';
import { Roles } from '../../../../platform/auth';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { acceptedLanguage, ApiError, ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { UserUuidPipe } from '../../infrastructure/params';
import { ReceiptListDto } from '../../infrastructure/receipt.responses';
import { ApiReceiptPdfResponse, sendReceiptPdf } from './receipt-pdf-response';
import { ApiReceiptNumberParam, ReceiptNumberPipe } from './receipt-number.pipe';
import { ReceiptReader } from './receipt-reader';

/** A client's receipts on the client's detail in the console: admins and managers read them (docs/product.md). */
@ApiTags('receipts')
@ApiBearerAuth()
@Controller('users')
export class ClientReceiptsController {
  constructor(
    private readonly receipts: ReceiptReader,
    private readonly users: UserReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':uuid/receipts')
  @ApiOperation({ summary: "A client's receipts, newest first (staff)" })
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: ReceiptListDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  async list(@Param('uuid', UserUuidPipe) userUuid: string): Promise<ReceiptList> {
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    return { items: await this.receipts.list(userUuid) };
  }

  @Get(':uuid/receipts/:number/pdf')
  @ApiOperation({ summary: "One of a client's receipts as a PDF file (staff)" })
  @ApiUuidParam('uuid')
  @ApiReceiptNumberParam()
  @ApiReceiptPdfResponse()
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  async pdf(
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Param('number', ReceiptNumberPipe) number: number,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const receipt = await this.receipts.find(userUuid, number);
    if (!receipt) throw new ApiError('error.receipt.not.found');
    const user = await this.users.findByUuid(userUuid);
    await sendReceiptPdf(
      response,
      receipt,
      acceptedLanguage(acceptLanguage, user?.language ?? 'he'),
      this.config.operator,
    );
  }
}
