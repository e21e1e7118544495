import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { recordRenewalFailure } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { RecordRenewalFailureCommand } from './record-renewal-failure.command';

@CommandHandler(RecordRenewalFailureCommand)
export class RecordRenewalFailureHandler implements ICommandHandler<RecordRenewalFailureCommand, void> {
  constructor(private readonly pipeline: CommandPipeline) {}

  async execute(command: RecordRenewalFailureCommand): Promise<void> {
    const { subscriptionId, missingMinor, nextAttemptAt, context, causationId } = command;
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: recordRenewalFailure({ missingMinor, nextAttemptAt, at }, subscription.state) },
        result: null,
      }),
    });
  }
}
