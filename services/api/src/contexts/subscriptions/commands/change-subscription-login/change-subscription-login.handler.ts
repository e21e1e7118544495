import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { SubscriptionParties } from '../../application/subscription-parties';
import { changeLogin } from '../../domain/subscription.decider';
import { LoginReservation, withUniqueLogin } from '../../infrastructure/logins';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ChangeSubscriptionLoginCommand } from './change-subscription-login.command';

@CommandHandler(ChangeSubscriptionLoginCommand)
export class ChangeSubscriptionLoginHandler implements ICommandHandler<ChangeSubscriptionLoginCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({ actor, subscriptionId, login, context }: ChangeSubscriptionLoginCommand): Promise<Subscription> {
    await this.reader.visibleTo(actor, subscriptionId);
    const reservation = new LoginReservation(login, this.reader);
    await withUniqueLogin(() =>
      this.pipeline.run({
        context,
        causationId: null,
        streams: { subscription: subscriptionStreams.ref(subscriptionId), login: reservation.stream },
        decide: ({ subscription }) => {
          const changed = changeLogin({ login }, subscription.state);
          if (changed.length > 0) reservation.reserve(subscriptionId);
          return { events: { subscription: changed }, result: null };
        },
      }),
    );
    return this.parties.subscription(subscriptionId);
  }
}
