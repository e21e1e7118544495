import { Inject, Injectable, Logger } from '@nestjs/common';
import type { SavedCardView } from '@kupa/proto';
import type { RequestContext } from '../../../platform/auth';
import { CardProvider, type CardWebhookEvent } from '../../../platform/card-provider';
import { CommandPipeline } from '../../../platform/commands';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { EventStore } from '../../../platform/event-store';
import { ApiError } from '../../../platform/http';
import { fallBackToBalanceFunding } from '../domain/subscription.decider';
import { recordCardCustomer, removeCard, saveCard } from '../domain/saved-card.decider';
import type { SavedCardState } from '../domain/saved-card.state';
import { savedCardStreams } from '../infrastructure/saved-card-streams';
import { subscriptionStreams } from '../infrastructure/subscription-streams';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';

/** What the renewal sweep charges: the client's customer and card at the provider, or null without a saved card. */
export interface ChargeableCard {
  customerId: string;
  paymentMethodId: string;
}

/**
 * Saved cards (docs/adr/0085-saved-cards.md): the customer made once per client, the setup checkout that saves a
 * card, the webhook that records it, removal, and what the renewal sweep may charge. The sandbox card serves all of
 * it where it stands in for Stripe (docs/adr/0087-sandbox-saved-cards.md); its customer records provider `SANDBOX`.
 */
@Injectable()
export class SavedCards {
  private readonly logger = new Logger('SavedCards');

  constructor(
    private readonly provider: CardProvider,
    private readonly pipeline: CommandPipeline,
    private readonly store: EventStore,
    private readonly subscriptions: SubscriptionReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Saving a card is offered: a card provider (Stripe, or the sandbox card standing in for it, ADR 0087), and the
   * operator's switch for card balance payments on (ADR 0082).
   */
  get available(): boolean {
    return this.provider.available && this.config.cardBalancePayments;
  }

  /**
   * Card renewals and card top-ups run behind one switch (`CARD_BALANCE_PAYMENTS`): off, nothing new may lean on the
   * card (409 `error.card.balance.payments.off`). Removing a card and going back to the balance stay open.
   */
  refuseWhileCardPaymentsOff(): void {
    if (!this.config.cardBalancePayments) throw new ApiError('error.card.balance.payments.off');
  }

  async stateOf(userUuid: string): Promise<SavedCardState> {
    return savedCardStreams.currentState(this.store, userUuid);
  }

  async view(userUuid: string): Promise<SavedCardView> {
    const { card } = await this.stateOf(userUuid);
    return {
      available: this.available,
      provider: this.provider.available ? this.provider.name : null,
      card:
        card === null
          ? null
          : {
              brand: card.brand,
              last4: card.last4,
              expMonth: card.expMonth,
              expYear: card.expYear,
              savedAt: card.savedAt,
            },
    };
  }

  /** The card the renewal sweep may charge now; a removed card, or any card while the switch is off, is never returned. */
  async chargeable(userUuid: string): Promise<ChargeableCard | null> {
    if (!this.config.cardBalancePayments) return null;
    const { customer, card } = await this.stateOf(userUuid);
    if (customer === null || card === null) return null;
    return { customerId: customer.customerId, paymentMethodId: card.paymentMethodId };
  }

  /** Opens a setup checkout for the client, making the client's customer first if there is none. */
  async openSetup(client: { userUuid: string; email: string }, setupId: string, context: RequestContext) {
    this.refuseWhileCardPaymentsOff();
    if (!this.available) throw new ApiError('error.card.provider.unavailable');
    const customerId = await this.customerOf(client, context);
    return this.provider.createSetupCheckout({
      userUuid: client.userUuid,
      customerId,
      setupId,
      // The client portal's profile page, where the Saved card section is (a path it does not have would be its 404).
      successUrl: `${this.config.publicUrl}/my-profile?card=saved`,
      cancelUrl: `${this.config.publicUrl}/my-profile`,
    });
  }

  /**
   * A verified webhook says a setup checkout completed: the checkout is read back from the provider (its word now,
   * whatever order events come in) and the card recorded by the decider's rules. A card the decision did not keep (an
   * older setup arriving late) is detached, so the client's customer keeps one card.
   */
  async recordSetup(event: CardWebhookEvent, context: RequestContext): Promise<boolean> {
    const setup = await this.provider.retrieveSetupCheckout(event.checkoutSessionId ?? '');
    if (setup === null || setup.userUuid === null || setup.paymentMethod === null) return false;
    const userUuid = setup.userUuid;
    const paymentMethod = setup.paymentMethod;
    const { result } = await this.pipeline.run({
      context,
      causationId: null,
      streams: { card: savedCardStreams.ref(userUuid) },
      decide: ({ card }, { at }) => {
        const events = saveCard(
          {
            userUuid,
            setup: {
              checkoutSessionId: setup.checkoutSessionId,
              customerId: setup.customerId,
              openedAt: new Date(setup.createdSeconds * 1000),
              paymentMethod,
            },
            at,
          },
          card.state,
        );
        const ours = card.state.customer !== null && card.state.customer.customerId === setup.customerId;
        const kept = events.length > 0 || card.state.card?.paymentMethodId === paymentMethod.paymentMethodId;
        const replaced =
          events.length > 0 && events[0].type === 'CardSaved' ? events[0].data.replacedPaymentMethodId : null;
        return { events: { card: events }, result: { ours, kept, replaced } };
      },
    });
    if (!result.ours) {
      this.logger.warn(`Card setup ${setup.checkoutSessionId} names a customer that is not its client's`);
      return false;
    }
    if (!result.kept) await this.detachQuietly(paymentMethod.paymentMethodId);
    if (result.replaced !== null) await this.detachQuietly(result.replaced);
    return true;
  }

  /**
   * Removes the client's card: recorded first, so it is never charged again whatever the provider answers, then
   * detached at the provider; every running subscription whose renewal used it falls back to the balance.
   */
  async remove(userUuid: string, context: RequestContext): Promise<void> {
    const { result: paymentMethodId } = await this.pipeline.run({
      context,
      causationId: null,
      streams: { card: savedCardStreams.ref(userUuid) },
      decide: ({ card }, { at }) => {
        const events = removeCard({ userUuid, at }, card.state);
        return { events: { card: events }, result: card.state.card?.paymentMethodId ?? '' };
      },
    });
    // The choices of renewal funding lock the card stream to read it, so none that uses the card commits after
    // the removal: every subscription found now is every one to move back to the balance.
    for (const subscriptionId of await this.subscriptions.fundedByCard(userUuid))
      await this.pipeline.run({
        context,
        causationId: null,
        streams: { subscription: subscriptionStreams.ref(subscriptionId) },
        decide: ({ subscription }, { at }) => ({
          events: { subscription: fallBackToBalanceFunding({ at }, subscription.state) },
          result: null,
        }),
      });
    await this.detachQuietly(paymentMethodId);
  }

  private async customerOf(client: { userUuid: string; email: string }, context: RequestContext): Promise<string> {
    const known = (await this.stateOf(client.userUuid)).customer;
    if (known !== null) return known.customerId;
    // The provider's idempotency key makes two first setups at once the same customer; the first record wins.
    const customerId = await this.provider.createCustomer(client);
    const { result } = await this.pipeline.run({
      context,
      causationId: null,
      streams: { card: savedCardStreams.ref(client.userUuid) },
      decide: ({ card }, { at }) => ({
        events: {
          card: recordCardCustomer(
            { userUuid: client.userUuid, provider: this.provider.name, customerId, at },
            card.state,
          ),
        },
        result: card.state.customer?.customerId ?? customerId,
      }),
    });
    return result;
  }

  /** Our books already say the card is gone: a provider that does not answer now only leaves a card nobody charges. */
  private async detachQuietly(paymentMethodId: string): Promise<void> {
    try {
      await this.provider.detachPaymentMethod(paymentMethodId);
    } catch (error) {
      this.logger.warn(`Detaching card ${paymentMethodId} failed; it stays removed in our books: ${String(error)}`);
    }
  }
}
