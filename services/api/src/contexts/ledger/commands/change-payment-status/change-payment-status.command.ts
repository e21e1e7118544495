import { Command } from '@nestjs/cqrs';
import type { Payment, PaymentStatus } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangePaymentStatusCommand extends Command<Payment> {
  constructor(
    readonly actor: Actor,
    readonly paymentId: number,
    readonly status: PaymentStatus,
    readonly confirmNegativeBalance: boolean,
    /** What staff tell the client about the change; null for nothing. */
    readonly publicNote: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
