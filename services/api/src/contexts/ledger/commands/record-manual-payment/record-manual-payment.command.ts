import { Command } from '@nestjs/cqrs';
import type { BalanceFixAction, Payment } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RecordManualPaymentCommand extends Command<Payment> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly amountMinor: number,
    readonly action: BalanceFixAction,
    readonly comment: string,
    readonly correction: boolean,
    /** What staff tell the client with the payment; null for nothing. */
    readonly publicNote: string | null,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
