import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { SubscriptionExtensions } from '../../application/subscription-extensions';
import { SubscriptionParties } from '../../application/subscription-parties';
import { ExtendSubscriptionCommand } from './extend-subscription.command';

/** An admin adds days to one subscription, with a reason the client is shown (ADR 0089). */
@CommandHandler(ExtendSubscriptionCommand)
export class ExtendSubscriptionHandler implements ICommandHandler<ExtendSubscriptionCommand, Subscription> {
  constructor(
    private readonly extensions: SubscriptionExtensions,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({
    actor,
    subscriptionId,
    days,
    reason,
    idempotencyKey,
    context,
  }: ExtendSubscriptionCommand): Promise<Subscription> {
    await this.parties.subscription(subscriptionId);
    await this.extensions.extend(
      { subscriptionId, days, reason, source: 'STAFF', actorId: actor.userUuid, idempotencyKey },
      context,
    );
    return this.parties.subscription(subscriptionId);
  }
}
