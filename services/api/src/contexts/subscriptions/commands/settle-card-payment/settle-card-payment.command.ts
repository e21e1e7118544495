import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';
import type { CardDepositRow, CardReport } from '../../../ledger';
import type { CardSettlement } from '../../application/card-checkout.service';

/**
 * What the card provider says about one of our checkouts, from its webhook or the card janitor. No route of its own:
 * the webhook's handler and the janitor run it.
 */
export class SettleCardPaymentCommand extends Command<CardSettlement> {
  constructor(
    readonly deposit: CardDepositRow,
    readonly report: CardReport,
    readonly context: RequestContext,
    readonly causationId: string | null = null,
  ) {
    super();
  }
}
