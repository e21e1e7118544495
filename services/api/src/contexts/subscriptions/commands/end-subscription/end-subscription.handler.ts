import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { endSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { EndSubscriptionCommand } from './end-subscription.command';

@CommandHandler(EndSubscriptionCommand)
export class EndSubscriptionHandler implements ICommandHandler<EndSubscriptionCommand, void> {
  constructor(private readonly pipeline: CommandPipeline) {}

  async execute({ subscriptionId, context, causationId }: EndSubscriptionCommand): Promise<void> {
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: endSubscription({ at }, subscription.state) },
        result: null,
      }),
    });
  }
}
