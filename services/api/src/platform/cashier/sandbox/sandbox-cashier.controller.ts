import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiOkResponse,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsString } from 'class-validator';
import {
  CASHIER_PROVIDER_STATUSES,
  type CashierProviderStatus,
  isOneOf,
  SANDBOX_INVOICE_SIGNATURE_PARAM,
  SANDBOX_PAYMENT_PERCENT,
} from '@kupa/proto';
import type { Request, Response } from 'express';
import { type Actor, OptionalJwtAuthGuard, Public } from '../../auth';
import { sandboxPageLanguage } from '../../http/sandbox-page';
import { ApiError, ApiErrors, OptionalField } from '../../http';
import { API_KEY_HEADER, type NowPaymentsInvoiceRequest } from '../nowpayments';
import { renderSandboxInvoicePage } from './sandbox-invoice.page';
import {
  SANDBOX_ACTIONS,
  SANDBOX_INVOICE_PAGE_PATH,
  type SandboxAction,
  type SandboxActionResult,
  SandboxCashier,
} from './sandbox-cashier.service';

const PROVIDER_ID = { type: 'string', pattern: '^[0-9]{1,20}$' } as const;

export class SandboxActionResultDto implements SandboxActionResult {
  @ApiProperty(PROVIDER_ID)
  invoiceId: string;

  @ApiProperty(PROVIDER_ID)
  paymentId: string;

  @ApiProperty({ enum: CASHIER_PROVIDER_STATUSES })
  status: CashierProviderStatus;

  @ApiProperty({ description: 'The coin that arrived, as the provider writes it', example: '12.5' })
  actuallyPaid: string;

  @ApiProperty({
    type: [Number],
    description: 'What our IPN route answered each notification the action sent (0: not reached)',
  })
  ipnStatuses: number[];
}

export class SandboxActionRequestDto {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description:
      'Scripts only: the coin that arrives, between ' +
      `${SANDBOX_PAYMENT_PERCENT.min} % and ${SANDBOX_PAYMENT_PERCENT.max} % of the invoice's ` +
      '(by default, also when null, `pay` pays the invoice in full, `partial` half)',
    example: '0.0003',
  })
  actuallyPaid?: string | null;
}

function checkedId(value: string): string {
  if (!/^[0-9]{1,20}$/.test(value)) throw new ApiError('error.cashier.invoice.not.found');
  return value;
}

const SIGNATURE_DESCRIPTION = "The invoice link's key, as the deposit's `invoiceUrl` carries it";

/**
 * What the invoice page and its buttons read from the query, as DTOs so that the validation pipe refuses any other
 * parameter and names the one holding text PostgreSQL cannot store, as on every other route. The key's name is
 * `SANDBOX_INVOICE_SIGNATURE_PARAM`, which the invoice links are written with.
 */
export class SandboxPayerQueryDto {
  @ApiPropertyOptional({ type: 'string', description: "The page's language: `he` (default) or `en`" })
  @OptionalField()
  @IsString()
  lang?: string;

  @ApiPropertyOptional({
    type: 'string',
    description: `${SIGNATURE_DESCRIPTION}; not needed with the access token of the deposit's owner`,
  })
  @OptionalField()
  @IsString()
  signature?: string;
}

/** The page itself is served only through the invoice's link: without its key it is 404, as a guessed id is. */
export class SandboxInvoicePageQueryDto {
  @ApiPropertyOptional({ type: 'string', description: "The page's language: `he` (default) or `en`" })
  @OptionalField()
  @IsString()
  lang?: string;

  @ApiProperty({ type: 'string', description: SIGNATURE_DESCRIPTION })
  @OptionalField()
  @IsString()
  signature?: string;
}

/**
 * The sandbox cashier's routes (docs/api.md, Sandbox cashier): the NOWPayments API our adapter calls (behind the
 * API key), the invoice page and its buttons (no sign-in, but only through the invoice's link: whoever holds the
 * link may play the payer, as with a real invoice; the buttons also take the deposit owner's session; a guessed id is
 * 404). All of them answer
 * `error.cashier.sandbox.off` (404) while the sandbox is off: `CASHIER_URL` is set, or the sandboxes are not on
 * (docs/adr/0055-sandboxes-only-on-demand.md).
 */
@ApiTags('sandbox cashier')
@Public()
@Controller('sandbox/cashier')
export class SandboxCashierController {
  constructor(private readonly sandbox: SandboxCashier) {}

  /** NOWPayments' `POST /v1/invoice`, for our own adapter; described by the provider, not by our document. */
  @Post('v1/invoice')
  @ApiExcludeEndpoint()
  async createInvoice(@Headers(API_KEY_HEADER) apiKey: string | undefined, @Body() body: unknown) {
    this.sandbox.assertApiKey(apiKey);
    if (typeof body !== 'object' || body === null) throw new ApiError('error.validation.invalid.input');
    return this.sandbox.createInvoice(body as NowPaymentsInvoiceRequest);
  }

  /** NOWPayments' `GET /v1/payment/{id}`, for our own adapter. */
  @Get('v1/payment/:paymentId')
  @ApiExcludeEndpoint()
  payment(@Headers(API_KEY_HEADER) apiKey: string | undefined, @Param('paymentId') paymentId: string) {
    this.sandbox.assertApiKey(apiKey);
    return this.sandbox.payment(checkedId(paymentId));
  }

  /** The invoice page, in Hebrew (default) or English (`?lang=en`). */
  @Get('invoices/:invoiceId')
  @ApiParam({ name: 'invoiceId', description: "The sandbox invoice's id: the end of the deposit's `invoiceUrl`" })
  @ApiOkResponse({ description: 'The invoice page (HTML)', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrors(400, 404)
  async page(
    @Param('invoiceId') invoiceId: string,
    @Query() { lang, signature }: SandboxInvoicePageQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertOn();
    this.sandbox.assertLink(checkedId(invoiceId), signature);
    const invoice = await this.sandbox.invoice(invoiceId);
    const payment = await this.sandbox.paymentOfInvoice(invoice.invoice_id);
    const html = renderSandboxInvoicePage(invoice, payment, sandboxPageLanguage(lang), {
      path: `${SANDBOX_INVOICE_PAGE_PATH}/${invoice.invoice_id}`,
      signature: signature as string,
    });
    response.status(200).type('html').setHeader('Cache-Control', 'no-store').send(html);
  }

  /**
   * What the page's buttons do: `pay`, `partial`, `fail` or `expire`, then a signed IPN to our IPN route. A browser's
   * form post is sent back to the page; a script gets the outcome as JSON. Only through the invoice's link, or with
   * the session of the deposit's owner.
   */
  @Post('invoices/:invoiceId/:action')
  @ApiParam({ name: 'invoiceId', description: "The sandbox invoice's id: the end of the deposit's `invoiceUrl`" })
  @ApiParam({ name: 'action', enum: SANDBOX_ACTIONS, description: 'What the payer does' })
  @HttpCode(200)
  @ApiOkResponse({ type: SandboxActionResultDto })
  @ApiBody({ type: SandboxActionRequestDto, required: false })
  @UseGuards(OptionalJwtAuthGuard)
  @ApiHeader({ name: 'Accept', required: false, description: '`text/html` (a form) is answered with a redirect' })
  @ApiErrors(400, 404, 409)
  async act(
    @Param('invoiceId') invoiceId: string,
    @Param('action') action: string,
    @Query() { lang, signature }: SandboxPayerQueryDto,
    @Headers('accept') accept: string | undefined,
    @Body() body: SandboxActionRequestDto | undefined,
    @Req() request: Request & { user?: Actor },
    @Res({ passthrough: true }) response: Response,
  ): Promise<SandboxActionResult | undefined> {
    this.sandbox.assertOn();
    // What the payer does is public knowledge, so a wrong one is named before the payer is asked for.
    if (!isOneOf(SANDBOX_ACTIONS, action)) throw new ApiError('error.validation.invalid.input');
    await this.sandbox.assertPayer(checkedId(invoiceId), signature, request.user);
    const actuallyPaid = typeof body?.actuallyPaid === 'string' ? body.actuallyPaid : null;
    const result = await this.sandbox.act(invoiceId, action as SandboxAction, actuallyPaid);
    if (accept?.includes('text/html')) {
      const query = new URLSearchParams({
        lang: sandboxPageLanguage(lang),
        [SANDBOX_INVOICE_SIGNATURE_PARAM]: signature ?? '',
      });
      response.redirect(303, `${SANDBOX_INVOICE_PAGE_PATH}/${result.invoiceId}?${query}`);
      return undefined;
    }
    return result;
  }
}
