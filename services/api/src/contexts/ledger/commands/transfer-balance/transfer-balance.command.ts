import { Command } from '@nestjs/cqrs';
import type { Payment } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class TransferBalanceCommand extends Command<Payment> {
  constructor(
    readonly actor: Actor,
    /** An e-mail address (any case) or an 8-digit profile ID. */
    readonly recipient: string,
    readonly amountMinor: number,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
    /** The step-up code, asked for when the sender has two-factor sign-in on (docs/adr/0098). */
    readonly otpCode?: string,
  ) {
    super();
  }
}
