import { Command } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import type { BuySubscriptionRequestDto } from './buy-subscription.request.dto';

export class BuySubscriptionCommand extends Command<Subscription> {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
    readonly request: BuySubscriptionRequestDto,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}
