import { Command } from '@nestjs/cqrs';
import type { BalanceFixAction, Payment } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RecordManualPaymentCommand extends Command<Payment> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    /** Null with a claim: the claim's amount. */
    readonly amountMinor: number | null,
    readonly action: BalanceFixAction,
    readonly comment: string,
    readonly correction: boolean,
    /** What staff tell the client with the payment; null for nothing. */
    readonly publicNote: string | null,
    readonly idempotencyKey: string | null,
    /** A DEPOSIT that settles this open manual-transfer claim of the same client, in the same append (ADR 0112). */
    readonly claimId: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
