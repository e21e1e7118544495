import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { changePassword } from '../../domain/subscription.decider';
import { SubscriptionSecrets } from '../../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ChangeSubscriptionPasswordCommand } from './change-subscription-password.command';

/** The new password goes to `subscription_secrets` under the version of the event that says it changed. */
@CommandHandler(ChangeSubscriptionPasswordCommand)
export class ChangeSubscriptionPasswordHandler implements ICommandHandler<ChangeSubscriptionPasswordCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
    private readonly secrets: SubscriptionSecrets,
  ) {}

  async execute({ actor, subscriptionId, password, context }: ChangeSubscriptionPasswordCommand): Promise<void> {
    await this.reader.visibleTo(actor, subscriptionId);
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { subscription: subscriptionStreams.ref(subscriptionId) },
      decide: ({ subscription }, { at }) => ({
        events: { subscription: changePassword({ password, at }, subscription.state) },
        result: subscription.version + 1,
      }),
      alongside: (tx, decision, { at }) =>
        this.secrets.write(tx.manager, { subscriptionId, version: decision.result, password, at }),
    });
  }
}
