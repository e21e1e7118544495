import type { PaymentStatus } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ChangePaymentStatusCommand {
  constructor(
    readonly actor: Actor,
    readonly paymentId: number,
    readonly status: PaymentStatus,
    readonly confirmNegativeBalance: boolean,
    readonly context: RequestContext,
  ) {}
}
