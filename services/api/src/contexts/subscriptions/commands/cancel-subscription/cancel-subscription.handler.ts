import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { SubscriptionParties } from '../../application/subscription-parties';
import { cancelSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { CancelSubscriptionCommand } from './cancel-subscription.command';

@CommandHandler(CancelSubscriptionCommand)
export class CancelSubscriptionHandler implements ICommandHandler<CancelSubscriptionCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({ actor, subscriptionId, context }: CancelSubscriptionCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: cancelSubscription({ at }, subscription.state) },
        result: null,
      }),
    });
    return this.parties.subscription(subscriptionId);
  }
}
