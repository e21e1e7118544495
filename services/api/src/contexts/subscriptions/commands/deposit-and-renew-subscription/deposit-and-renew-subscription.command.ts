import { Command } from '@nestjs/cqrs';
import type { CryptoDepositResponse, CryptoMethod } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class DepositAndRenewSubscriptionCommand extends Command<CryptoDepositResponse> {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly method: CryptoMethod,
    /** The deposit the client was shown, in cents; null when the request named none. */
    readonly shownAmountMinor: number | null,
    readonly context: RequestContext,
    /** A promo code the owner entered (docs/adr/0088-promo-codes.md); undefined for none. */
    readonly promoCode: string | undefined = undefined,
  ) {
    super();
  }
}
