import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { deactivateRecurrence } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { DeactivateRecurrenceCommand } from './deactivate-recurrence.command';

@CommandHandler(DeactivateRecurrenceCommand)
export class DeactivateRecurrenceHandler implements ICommandHandler<DeactivateRecurrenceCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
  ) {}

  /**
   * Stops the automatic renewal of every subscription the caller holds on the package and that has not ended, one
   * command each; those already stopped or not recurrent stay as they are. None at all is 404.
   */
  async execute({ actor, planId, context }: DeactivateRecurrenceCommand): Promise<void> {
    const subscriptionIds = await this.reader.runningOnPlan(actor.userUuid, planId);
    if (subscriptionIds.length === 0) throw new ApiError('error.subscription.not.found');
    for (const subscriptionId of subscriptionIds)
      await this.pipeline.run({
        context,
        causationId: null,
        streams: { subscription: subscriptionStreams.ref(subscriptionId) },
        decide: ({ subscription }, { at }) => ({
          events: { subscription: deactivateRecurrence({ at }, subscription.state) },
          result: null,
        }),
      });
  }
}
