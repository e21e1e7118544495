import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import type { Request, Response } from 'express';
import { Public } from '../../auth';
import { sandboxPageLanguage } from '../../http/sandbox-page';
import { ApiError, OptionalField, TakesBody } from '../../http';
import { SANDBOX_CHECKOUT_PAGE_PATH, SANDBOX_SETUP_PAGE_PATH } from '../card-provider-settings';
import type { CheckoutSessionWire } from './checkout-session';
import { renderSandboxCheckoutPage } from './sandbox-checkout.page';
import { SandboxCard, type SandboxCardPayment } from './sandbox-card.service';
import { SandboxSavedCards, type SandboxCardSetup } from './sandbox-saved-cards.service';
import { renderSandboxSetupPage } from './sandbox-setup.page';
import { isSandboxTestCard, type SetupSessionWire, type StripeWireAnswer, stripeRefusal } from './saved-card-wire';

/** The most a create call's form may weigh: our adapter's is well under a kilobyte. */
const FORM_LIMIT_BYTES = 16 * 1024;

function checkedSessionId(value: string): string {
  if (!/^cs_[A-Za-z0-9_]{1,100}$/.test(value)) throw new ApiError('error.card.sandbox.checkout.not.found');
  return value;
}

/** A Stripe object id in a path (`pm_…`, `seti_…`, `pi_…`): anything else is no such object, as at Stripe. */
function isObjectId(value: string, prefix: string): boolean {
  return new RegExp(`^${prefix}_[A-Za-z0-9_]{1,100}$`).test(value);
}

/** The key a POST carries, or null. */
function keyOf(idempotencyKey: string | undefined): string | null {
  return typeof idempotencyKey === 'string' && idempotencyKey !== '' ? idempotencyKey : null;
}

/** Answers in Stripe's terms: its status (200, 402, 400, 404) and body, which the SDK reads as Stripe's. */
function stripeAnswer(response: Response, answer: StripeWireAnswer): void {
  response.status(answer.status).json(answer.body);
}

/** The fields `expand[]` names on a retrieve (`expand[0]=setup_intent`, as the SDK writes them). */
function expandOf(request: Request): string[] {
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  return [...query.entries()].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);
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
  constructor(
    private readonly sandbox: SandboxCard,
    private readonly savedCards: SandboxSavedCards,
  ) {}

  /** Stripe's `POST /v1/checkout/sessions`: a form-encoded body, an optional `Idempotency-Key`. */
  @Post('v1/checkout/sessions')
  @HttpCode(200)
  @TakesBody()
  async create(
    @Headers('authorization') authorization: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    const form = Object.fromEntries(new URLSearchParams(await formText(request)));
    // A setup-mode session saves a card (docs/adr/0087-sandbox-saved-cards.md); payment mode is ADR 0080's.
    stripeAnswer(
      response,
      form.mode === 'setup'
        ? await this.savedCards.createSetupSession(form, keyOf(idempotencyKey))
        : { status: 200, body: await this.sandbox.create(form, keyOf(idempotencyKey)) },
    );
  }

  /** Stripe's `GET /v1/checkout/sessions/{id}`, of a payment session or a setup one (with its `expand[]`). */
  @Get('v1/checkout/sessions/:sessionId')
  async retrieve(
    @Headers('authorization') authorization: string | undefined,
    @Param('sessionId') sessionId: string,
    @Req() request: Request,
  ): Promise<CheckoutSessionWire | SetupSessionWire> {
    this.sandbox.assertSecretKey(authorization);
    const setup = await this.savedCards.retrieveSetupSession(checkedSessionId(sessionId), expandOf(request));
    return setup ?? this.sandbox.retrieve(sessionId);
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

  // Saved cards (docs/adr/0087-sandbox-saved-cards.md): the rest of what our adapter calls, answered in Stripe's terms.

  /** Stripe's `POST /v1/customers`. */
  @Post('v1/customers')
  @TakesBody()
  async createCustomer(
    @Headers('authorization') authorization: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    const form = Object.fromEntries(new URLSearchParams(await formText(request)));
    stripeAnswer(response, await this.savedCards.createCustomer(form, keyOf(idempotencyKey)));
  }

  /** Stripe's `GET /v1/setup_intents/{id}`. */
  @Get('v1/setup_intents/:setupIntentId')
  async retrieveSetupIntent(
    @Headers('authorization') authorization: string | undefined,
    @Param('setupIntentId') setupIntentId: string,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    stripeAnswer(
      response,
      isObjectId(setupIntentId, 'seti')
        ? await this.savedCards.retrieveSetupIntent(setupIntentId)
        : stripeRefusal(404, `No such setupintent: '${setupIntentId}'`, { code: 'resource_missing' }),
    );
  }

  /** Stripe's `GET /v1/payment_methods/{id}`. */
  @Get('v1/payment_methods/:paymentMethodId')
  async retrievePaymentMethod(
    @Headers('authorization') authorization: string | undefined,
    @Param('paymentMethodId') paymentMethodId: string,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    stripeAnswer(
      response,
      isObjectId(paymentMethodId, 'pm')
        ? await this.savedCards.retrievePaymentMethod(paymentMethodId)
        : stripeRefusal(404, `No such PaymentMethod: '${paymentMethodId}'`, { code: 'resource_missing' }),
    );
  }

  /** Stripe's `POST /v1/payment_methods/{id}/detach` (removing or replacing a saved card). */
  @Post('v1/payment_methods/:paymentMethodId/detach')
  @TakesBody()
  async detachPaymentMethod(
    @Headers('authorization') authorization: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Param('paymentMethodId') paymentMethodId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    await formText(request);
    stripeAnswer(
      response,
      isObjectId(paymentMethodId, 'pm')
        ? await this.savedCards.detachPaymentMethod(paymentMethodId, keyOf(idempotencyKey))
        : stripeRefusal(404, `No such PaymentMethod: '${paymentMethodId}'`, { code: 'resource_missing' }),
    );
  }

  /** Stripe's `POST /v1/payment_intents`, created and confirmed off-session (a renewal's charge of the saved card). */
  @Post('v1/payment_intents')
  @TakesBody()
  async createPaymentIntent(
    @Headers('authorization') authorization: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    const form = Object.fromEntries(new URLSearchParams(await formText(request)));
    stripeAnswer(response, await this.savedCards.createPaymentIntent(form, keyOf(idempotencyKey)));
  }

  /** Stripe's `GET /v1/payment_intents/{id}`. */
  @Get('v1/payment_intents/:paymentIntentId')
  async retrievePaymentIntent(
    @Headers('authorization') authorization: string | undefined,
    @Param('paymentIntentId') paymentIntentId: string,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertSecretKey(authorization);
    stripeAnswer(
      response,
      isObjectId(paymentIntentId, 'pi')
        ? await this.savedCards.retrievePaymentIntent(paymentIntentId)
        : stripeRefusal(404, `No such payment_intent: '${paymentIntentId}'`, { code: 'resource_missing' }),
    );
  }

  /** The setup page, in Hebrew (default) or English (`?lang=en`): test cards to choose from; only through its link. */
  @Get('setups/:sessionId')
  async setupPage(
    @Param('sessionId') sessionId: string,
    @Query() { lang, signature }: SandboxCheckoutQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    this.sandbox.assertOn();
    this.sandbox.assertLink(checkedSessionId(sessionId), signature);
    const row = await this.savedCards.setupSession(sessionId);
    if (row === null) throw new ApiError('error.card.sandbox.checkout.not.found');
    const html = renderSandboxSetupPage(this.savedCards.setupWire(row), sandboxPageLanguage(lang), {
      path: `${SANDBOX_SETUP_PAGE_PATH}/${sessionId}`,
      signature: signature as string,
    });
    response.status(200).type('html').setHeader('Cache-Control', 'no-store').send(html);
  }

  /**
   * The setup page's Save, with the chosen test card in its form (`card`): the session completes and our webhook
   * route gets Stripe's signed event, then a browser is sent on to the session's success address; a script gets
   * the outcome as JSON. Only through the session's link.
   */
  @Post('setups/:sessionId/save')
  @HttpCode(200)
  @TakesBody()
  async save(
    @Param('sessionId') sessionId: string,
    @Query() { signature }: SandboxCheckoutQueryDto,
    @Headers('accept') accept: string | undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SandboxCardSetup | undefined> {
    this.sandbox.assertOn();
    this.sandbox.assertLink(checkedSessionId(sessionId), signature);
    const card = new URLSearchParams(await formText(request)).get('card') ?? 'pays';
    if (!isSandboxTestCard(card)) throw new ApiError('error.validation.invalid.input');
    const setup = await this.savedCards.save(sessionId, card);
    if (accept?.includes('text/html')) {
      response.redirect(303, setup.successUrl);
      return undefined;
    }
    return setup;
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
