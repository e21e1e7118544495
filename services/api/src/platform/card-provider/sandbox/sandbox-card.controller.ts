import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import type { Request, Response } from 'express';
import { Public } from '../../auth';
import { sandboxPageLanguage } from '../../http/sandbox-page';
import { ApiError, OptionalField, TakesBody } from '../../http';
import { SANDBOX_CHECKOUT_PAGE_PATH } from '../card-provider-settings';
import type { CheckoutSessionWire } from './checkout-session';
import { renderSandboxCheckoutPage } from './sandbox-checkout.page';
import { SandboxCard, type SandboxCardPayment } from './sandbox-card.service';

/** The most a create call's form may weigh: our adapter's is well under a kilobyte. */
const FORM_LIMIT_BYTES = 16 * 1024;

function checkedSessionId(value: string): string {
  if (!/^cs_[A-Za-z0-9_]{1,100}$/.test(value)) throw new ApiError('error.card.sandbox.checkout.not.found');
  return value;
}

/** What the checkout page and its Pay button read from the query: its language and the link's key. */
export class SandboxCheckoutQueryDto {
  @ApiPropertyOptional({ type: 'string', description: "The page's language: `he` (default) or `en`" })
  @OptionalField()
  @IsString()
  lang?: string;

  @ApiPropertyOptional({ type: 'string', description: "The checkout link's key, as the session's `url` carries it" })
  @OptionalField()
  @IsString()
  signature?: string;
}

/**
 * The sandbox card's routes (docs/adr/0080-sandbox-card-checkout.md): the Stripe API calls our card adapter makes
 * (behind Stripe's bearer check), and the checkout page with its Pay button (no sign-in, but only through the
 * session's link, as a Stripe Checkout URL is the payer's key). They stand in for Stripe, not for our API, so the
 * API document leaves them out, as it leaves out Stripe's. All of them answer `error.card.sandbox.off` (404) while
 * the sandbox card is off: `STRIPE_SECRET_KEY` is set, or the sandboxes are not on.
 */
@ApiExcludeController()
@Public()
@Controller('sandbox/card')
export class SandboxCardController {
  constructor(private readonly sandbox: SandboxCard) {}

  /** Stripe's `POST /v1/checkout/sessions`: a form-encoded body, an optional `Idempotency-Key`. */
  @Post('v1/checkout/sessions')
  @HttpCode(200)
  @TakesBody()
  async create(
    @Headers('authorization') authorization: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() request: Request,
  ): Promise<CheckoutSessionWire> {
    this.sandbox.assertSecretKey(authorization);
    const form = Object.fromEntries(new URLSearchParams(await formText(request)));
    return this.sandbox.create(
      form,
      typeof idempotencyKey === 'string' && idempotencyKey !== '' ? idempotencyKey : null,
    );
  }

  /** Stripe's `GET /v1/checkout/sessions/{id}`. */
  @Get('v1/checkout/sessions/:sessionId')
  retrieve(
    @Headers('authorization') authorization: string | undefined,
    @Param('sessionId') sessionId: string,
  ): Promise<CheckoutSessionWire> {
    this.sandbox.assertSecretKey(authorization);
    return this.sandbox.retrieve(checkedSessionId(sessionId));
  }

  /** Stripe's `POST /v1/checkout/sessions/{id}/expire`, which the card janitor calls on stale checkouts. */
  @Post('v1/checkout/sessions/:sessionId/expire')
  @HttpCode(200)
  expire(
    @Headers('authorization') authorization: string | undefined,
    @Param('sessionId') sessionId: string,
  ): Promise<CheckoutSessionWire> {
    this.sandbox.assertSecretKey(authorization);
    return this.sandbox.expire(checkedSessionId(sessionId));
  }

  /** The checkout page, in Hebrew (default) or English (`?lang=en`); only through the session's link. */
  @Get('checkouts/:sessionId')
  async page(
    @Param('sessionId') sessionId: string,
    @Query() { lang, signature }: SandboxCheckoutQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertOn();
    this.sandbox.assertLink(checkedSessionId(sessionId), signature);
    const row = await this.sandbox.session(sessionId);
    const html = renderSandboxCheckoutPage(this.sandbox.wire(row), row.product_name, sandboxPageLanguage(lang), {
      path: `${SANDBOX_CHECKOUT_PAGE_PATH}/${sessionId}`,
      signature: signature as string,
    });
    response.status(200).type('html').setHeader('Cache-Control', 'no-store').send(html);
  }

  /**
   * The page's Pay button: the session is paid and our webhook route gets Stripe's signed event, then a browser's
   * form post is sent on to the session's success address, as Stripe sends the payer back; a script gets the outcome
   * as JSON. Only through the session's link.
   */
  @Post('checkouts/:sessionId/pay')
  @HttpCode(200)
  async pay(
    @Param('sessionId') sessionId: string,
    @Query() { signature }: SandboxCheckoutQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SandboxCardPayment | undefined> {
    this.sandbox.assertOn();
    this.sandbox.assertLink(checkedSessionId(sessionId), signature);
    const payment = await this.sandbox.pay(sessionId);
    if (accept?.includes('text/html')) {
      response.redirect(303, payment.successUrl);
      return undefined;
    }
    return payment;
  }
}

/** The create call's body as text: form posts are not parsed by the app (only JSON is), so the route reads them. */
async function formText(request: Request): Promise<string> {
  if (!request.is('application/x-www-form-urlencoded') && request.headers['content-length'] !== '0')
    throw new ApiError('error.unsupported.media.type');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > FORM_LIMIT_BYTES) throw new ApiError('error.validation.invalid.input');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
