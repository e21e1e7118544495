import { Command } from '@nestjs/cqrs';
import type { Payment } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

/**
 * A bulk operation's goodwill credit to one client (docs/adr/0090-bulk-operations.md): `expense:goodwill` → the
 * client's wallet, as a DEPOSIT payment carrying the batch's reason and public note. Keyed by (batch, client): run
 * again after a crash, it answers the first payment and moves no money.
 */
export class CreditGoodwillCommand extends Command<Payment> {
  constructor(
    readonly actor: Actor,
    readonly batchId: string,
    readonly userUuid: string,
    readonly amountMinor: number,
    readonly reason: string,
    readonly publicNote: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
