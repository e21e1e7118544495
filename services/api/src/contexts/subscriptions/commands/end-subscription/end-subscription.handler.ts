import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { endSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { EndSubscriptionCommand } from './end-subscription.command';

@CommandHandler(EndSubscriptionCommand)
export class EndSubscriptionHandler implements ICommandHandler<EndSubscriptionCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ subscriptionId, context, causationId }: EndSubscriptionCommand): Promise<void> {
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: endSubscription({ at, graceDays: this.config.renewalGraceDays }, subscription.state) },
        result: null,
      }),
    });
  }
}
