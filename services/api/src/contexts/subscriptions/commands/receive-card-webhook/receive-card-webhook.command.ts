import { Command } from '@nestjs/cqrs';
import type { PaymentStatus } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

/** What a webhook did: whether it was about one of our checkouts, and then the deposit after it. */
export interface CardWebhookOutcome {
  handled: boolean;
  paymentId: number | null;
  status: PaymentStatus | null;
  /** Dollars this webhook put on the balance (0 for a repeat, a stale event or one that brings no money). */
  credited: number;
}

/** A webhook from the card provider: its raw body and signature, verified by the handler before anything else. */
export class ReceiveCardWebhookCommand extends Command<CardWebhookOutcome> {
  constructor(
    readonly rawBody: Buffer | undefined,
    readonly signature: string | undefined,
    readonly context: RequestContext,
  ) {
    super();
  }
}
