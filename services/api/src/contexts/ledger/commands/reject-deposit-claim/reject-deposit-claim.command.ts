import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

/** Staff found no transfer as claimed: the claim closes with their reason, which the client is told (ADR 0112). */
export class RejectDepositClaimCommand extends Command<void> {
  constructor(
    readonly claimId: string,
    readonly reasonText: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
