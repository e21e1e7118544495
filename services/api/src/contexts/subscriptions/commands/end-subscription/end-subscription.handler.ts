import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ledgerStreams } from '../../../ledger';
import { ReferralDiscounts } from '../../application/referral-discounts';
import { SubscriptionParties } from '../../application/subscription-parties';
import { endSubscription } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { EndSubscriptionCommand } from './end-subscription.command';

/**
 * Ends, or lapses into GRACE, a subscription whose end date passed. The owner's wallet is loaded under the lock so
 * that a lapse records what the balance lacked at that moment (issue 31): the grace-started reminder, sent later by
 * a processor, tells that, not the balance of whenever it runs. Nothing is appended to the wallet.
 */
@CommandHandler(EndSubscriptionCommand)
export class EndSubscriptionHandler implements ICommandHandler<EndSubscriptionCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly parties: SubscriptionParties,
    private readonly discounts: ReferralDiscounts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ subscriptionId, context, causationId }: EndSubscriptionCommand): Promise<void> {
    const owner = await this.parties.ownerOf(subscriptionId);
    const discountPercent = await this.discounts.percentFor(owner.profileId);
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription: subscriptionStreams.ref(subscriptionId), wallet: ledgerStreams.wallet(owner.uuid) },
      decide: ({ subscription, wallet }, { at }) => ({
        events: {
          subscription: endSubscription(
            {
              at,
              graceDays: this.config.renewalGraceDays,
              discountPercent,
              balanceMinor: wallet.state.balanceMinor,
            },
            subscription.state,
          ),
        },
        result: null,
      }),
    });
  }
}
