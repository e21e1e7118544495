import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { SubscriptionParties } from '../../application/subscription-parties';
import { resumeSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ResumeSubscriptionCommand } from './resume-subscription.command';

/** Withdraws a cancellation before the end date; who may is who may cancel (ADR 0076). */
@CommandHandler(ResumeSubscriptionCommand)
export class ResumeSubscriptionHandler implements ICommandHandler<ResumeSubscriptionCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({ actor, subscriptionId, context }: ResumeSubscriptionCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: resumeSubscription({ at }, subscription.state) },
        result: null,
      }),
    });
    return this.parties.subscription(subscriptionId);
  }
}
