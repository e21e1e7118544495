import { Command } from '@nestjs/cqrs';
import type { DepositClaim } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

/** A client says they sent `amountMinor` by bank transfer with their profile ID as the reference (ADR 0112). */
export class ClaimManualTransferCommand extends Command<DepositClaim> {
  constructor(
    readonly actor: Actor,
    readonly amountMinor: number,
    readonly note: string | null,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
