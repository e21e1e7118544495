import { Command } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RenewSubscriptionCommand extends Command<Subscription> {
  constructor(
    /** The owner or staff asking, who must see the subscription; null for the sweep's automatic renewal. */
    readonly actor: Actor | null,
    readonly subscriptionId: string,
    readonly context: RequestContext,
    readonly causationId: string | null = null,
    /** A promo code the owner entered (docs/adr/0088-promo-codes.md); the sweep's renewals take none. */
    readonly promoCode: string | undefined = undefined,
  ) {
    super();
  }
}
