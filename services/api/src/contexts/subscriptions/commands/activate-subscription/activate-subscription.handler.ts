import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { activateSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { ActivateSubscriptionCommand } from './activate-subscription.command';

@CommandHandler(ActivateSubscriptionCommand)
export class ActivateSubscriptionHandler implements ICommandHandler<ActivateSubscriptionCommand, void> {
  constructor(private readonly pipeline: CommandPipeline) {}

  async execute({
    subscriptionId,
    context,
    causationId,
    accountExpiresAt,
  }: ActivateSubscriptionCommand): Promise<void> {
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: activateSubscription({ at, accountExpiresAt }, subscription.state) },
        result: null,
      }),
    });
  }
}
