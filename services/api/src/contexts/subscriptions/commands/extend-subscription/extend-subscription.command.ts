import { Command } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class ExtendSubscriptionCommand extends Command<Subscription> {
  constructor(
    readonly actor: Actor,
    readonly subscriptionId: string,
    readonly days: number,
    readonly reason: string,
    readonly idempotencyKey: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
