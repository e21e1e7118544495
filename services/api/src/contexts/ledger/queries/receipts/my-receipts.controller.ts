import { Controller, Get, Headers, Inject, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Receipt, ReceiptList } from '@kupa/proto';
import type { Response } from 'express';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { acceptedLanguage, ApiError, ApiErrors } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { ReceiptDto, ReceiptListDto } from '../../infrastructure/receipt.responses';
import { ApiReceiptPdfResponse, sendReceiptPdf } from './receipt-pdf-response';
import { ApiReceiptNumberParam, ReceiptNumberPipe } from './receipt-number.pipe';
import { ReceiptReader } from './receipt-reader';

/** A client's or an ambassador's own receipts; another's answers like a missing one (404). */
@ApiTags('receipts')
@ApiBearerAuth()
@Controller('receipts')
export class MyReceiptsController {
  constructor(
    private readonly receipts: ReceiptReader,
    private readonly users: UserReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'My receipts, newest first' })
  @ApiOkResponse({ type: ReceiptListDto })
  @ApiErrors(400, 401, 403)
  @Roles('CLIENT', 'AMBASSADOR')
  async list(@CurrentActor() actor: Actor): Promise<ReceiptList> {
    return { items: await this.receipts.list(actor.userUuid) };
  }

  @Get(':number')
  @ApiOperation({ summary: 'One of my receipts' })
  @ApiReceiptNumberParam()
  @ApiOkResponse({ type: ReceiptDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('CLIENT', 'AMBASSADOR')
  async get(@CurrentActor() actor: Actor, @Param('number', ReceiptNumberPipe) number: number): Promise<Receipt> {
    return this.own(actor, number);
  }

  @Get(':number/pdf')
  @ApiOperation({ summary: 'One of my receipts as a PDF file' })
  @ApiReceiptNumberParam()
  @ApiReceiptPdfResponse()
  @ApiErrors(400, 401, 403, 404)
  @Roles('CLIENT', 'AMBASSADOR')
  async pdf(
    @CurrentActor() actor: Actor,
    @Param('number', ReceiptNumberPipe) number: number,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const receipt = await this.own(actor, number);
    const user = await this.users.findByUuid(actor.userUuid);
    await sendReceiptPdf(
      response,
      receipt,
      acceptedLanguage(acceptLanguage, user?.language ?? 'he'),
      this.config.operator,
    );
  }

  private async own(actor: Actor, number: number): Promise<Receipt> {
    const receipt = await this.receipts.find(actor.userUuid, number);
    if (!receipt) throw new ApiError('error.receipt.not.found');
    return receipt;
  }
}
