import type { RequestContext } from '../../../../platform/auth';

/** A webhook from the card provider: its raw body and signature, verified by the handler before anything else. */
export class ReceiveCardWebhookCommand {
  constructor(
    readonly rawBody: Buffer | undefined,
    readonly signature: string | undefined,
    readonly context: RequestContext,
  ) {}
}
