import { Body, Controller, Headers, HttpCode, Post, RawBody } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiHeader, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { PAYMENT_STATUSES, type PaymentStatus } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { CARD_WEBHOOK_SIGNATURE_HEADER } from '../../../../platform/card-provider';
import { ApiErrors } from '../../../../platform/http';
import { type CardWebhookOutcome, ReceiveCardWebhookCommand } from './receive-card-webhook.command';

export class CardWebhookAnswerDto implements CardWebhookOutcome {
  @ApiProperty({ description: 'Whether the event was about one of our checkouts, saved cards or renewal charges' })
  handled: boolean;

  @ApiProperty({ type: 'integer', minimum: 1, nullable: true })
  paymentId: number | null;

  @ApiProperty({ enum: PAYMENT_STATUSES, nullable: true, description: "The deposit's status after the event" })
  status: PaymentStatus | null;

  @ApiProperty({ description: 'Dollars this event put on the balance (0 for a repeat)' })
  credited: number;
}

/**
 * The card provider's webhooks. Public, because the provider has no account with us, but verified: the
 * `Stripe-Signature` header must sign the raw body with `STRIPE_WEBHOOK_SECRET`, or the webhook is refused (400)
 * and changes nothing (docs/adr/0029-card-checkout.md).
 */
@ApiTags('payments')
@Public()
@Controller('stripe')
export class ReceiveCardWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Post('webhook')
  @HttpCode(200)
  @ApiHeader({ name: CARD_WEBHOOK_SIGNATURE_HEADER, required: true, description: "Stripe's signature of the raw body" })
  @ApiOkResponse({ type: CardWebhookAnswerDto })
  @ApiBody({
    description:
      'A Stripe event; checkout session and PaymentIntent events (renewals charged to the saved card, ADR 0086) are acted on once the signature holds, others ignored',
    schema: { type: 'object', additionalProperties: true, properties: { id: { type: 'string' } } },
  })
  @ApiErrors(400, 503)
  receive(
    // The signature is over the bytes Stripe sent: the raw body, never the parsed and re-serialised JSON. The parsed
    // body is only held to the rules every body meets (no text PostgreSQL cannot store, no inherited member names).
    @Body() _event: unknown,
    @RawBody() rawBody: Buffer | undefined,
    @Headers(CARD_WEBHOOK_SIGNATURE_HEADER) signature: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<CardWebhookOutcome> {
    return this.commands.execute(new ReceiveCardWebhookCommand(rawBody, signature, context));
  }
}
