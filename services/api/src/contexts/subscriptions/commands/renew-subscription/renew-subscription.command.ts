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
  ) {
    super();
  }
}
