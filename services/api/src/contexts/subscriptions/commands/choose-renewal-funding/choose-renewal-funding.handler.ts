import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Subscription, usesSavedCard } from '@kupa/proto';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { SavedCards } from '../../application/saved-cards';
import { chooseRenewalFunding } from '../../domain/subscription.decider';
import { savedCardStreams } from '../../infrastructure/saved-card-streams';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SubscriptionReader } from '../../projections/subscriptions/subscription-reader';
import { ChooseRenewalFundingCommand } from './choose-renewal-funding.command';

/**
 * The owner's choice of how the automatic renewal is paid (docs/adr/0085-saved-cards.md). The saved card stream is
 * locked to be read, so a removal of the card and a choice that needs it never cross: one waits for the other.
 */
@CommandHandler(ChooseRenewalFundingCommand)
export class ChooseRenewalFundingHandler implements ICommandHandler<ChooseRenewalFundingCommand, Subscription> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: SubscriptionReader,
    private readonly cards: SavedCards,
  ) {}

  async execute({ actor, subscriptionId, funding, context }: ChooseRenewalFundingCommand): Promise<Subscription> {
    // Only clients and ambassadors reach here: another's subscription, like a missing one, is 404.
    const owned = await this.reader.visibleTo(actor, subscriptionId);
    if (usesSavedCard(funding)) this.cards.refuseWhileCardPaymentsOff();
    await this.pipeline.run({
      context,
      causationId: null,
      streams: {
        subscription: subscriptionStreams.ref(subscriptionId),
        card: savedCardStreams.lockedForReading(owned.userUuid),
      },
      decide: ({ subscription, card }, { at }) => ({
        events: {
          subscription: chooseRenewalFunding(
            { funding, hasSavedCard: card.state.card !== null, at },
            subscription.state,
          ),
        },
        result: null,
      }),
    });
    const subscription = await this.reader.find(subscriptionId);
    assert(subscription !== null, 'a subscription just changed is in the read model');
    return subscription;
  }
}
