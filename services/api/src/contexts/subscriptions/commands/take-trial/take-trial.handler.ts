import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { TrialUse } from '../../../identity';
import { SubscriptionParties } from '../../application/subscription-parties';
import { purchaseTrial } from '../../domain/subscription.decider';
import { LoginReservation, withUniqueLogin } from '../../infrastructure/logins';
import { SubscriptionSecrets } from '../../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { subscriptionFromPurchase } from '../../projections/subscriptions/subscription-view';
import { actorLabelOf } from '../../projections/subscriptions/subscriptions.projection';
import { TakeTrialCommand } from './take-trial.command';

/** Takes the trial: the user's stream says it is used, in the same append as the trial subscription. */
@CommandHandler(TakeTrialCommand)
export class TakeTrialHandler implements ICommandHandler<TakeTrialCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly parties: SubscriptionParties,
    private readonly secrets: SubscriptionSecrets,
    private readonly subscriptions: SubscriptionReader,
  ) {}

  /** Only for oneself: another user's id answers like an unknown one. */
  async execute({ actor, userUuid, request, context }: TakeTrialCommand): Promise<Subscription> {
    if (userUuid !== actor.userUuid) throw new ApiError('error.user.not.found');
    const { login, password } = request;
    const user = await this.parties.existingUser(userUuid);
    const subscriptionId = randomUUID();
    const reservation = new LoginReservation(login, this.subscriptions);
    const { result } = await withUniqueLogin(() =>
      this.pipeline.run({
        context,
        causationId: null,
        streams: {
          user: TrialUse.stream(user.uuid),
          subscription: subscriptionStreams.ref(subscriptionId),
          login: reservation.stream,
        },
        decide: (loaded, stamp) => {
          const used = TrialUse.decide(loaded.user, stamp.at);
          const purchased = purchaseTrial(
            { subscriptionId, userUuid: user.uuid, userEmail: user.email, login, password, at: stamp.at },
            loaded.subscription.state,
          );
          const [event] = purchased;
          assert(event?.type === 'SubscriptionPurchased', 'a trial decides one SubscriptionPurchased');
          reservation.reserve(subscriptionId);
          return {
            events: { user: used, subscription: purchased },
            result: subscriptionFromPurchase(event.data, actorLabelOf(stamp)),
          };
        },
        alongside: (tx, _decision, { at }) =>
          this.secrets.write(tx.manager, { subscriptionId, version: 1, password, at }),
      }),
    );
    return result;
  }
}
