import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CARD_WEBHOOK_EVENT_TYPES, CardProvider, cardStatusOf } from '../../../../platform/card-provider';
import { CardDepositCheckouts } from '../../../ledger';
import { CardRenewals } from '../../application/card-renewals';
import { SavedCards } from '../../application/saved-cards';
import { SettleCardPaymentCommand } from '../settle-card-payment/settle-card-payment.command';
import { type CardWebhookOutcome, ReceiveCardWebhookCommand } from './receive-card-webhook.command';

const IGNORED: CardWebhookOutcome = { handled: false, paymentId: null, status: null, credited: 0 };

/**
 * A card provider's webhook (docs/adr/0029-card-checkout.md). The signature over the raw body must hold, or nothing
 * happens (400). A valid webhook only says which checkout to ask about: where the checkout stands comes from the
 * provider's API, so events arriving late or out of order tell the truth of the moment. Events about anything but
 * one of our checkouts are acknowledged and ignored, so the provider stops retrying them.
 */
@CommandHandler(ReceiveCardWebhookCommand)
export class ReceiveCardWebhookHandler implements ICommandHandler<ReceiveCardWebhookCommand, CardWebhookOutcome> {
  private readonly logger = new Logger('CardWebhooks');

  constructor(
    private readonly provider: CardProvider,
    private readonly cards: CardDepositCheckouts,
    private readonly commands: CommandBus,
    private readonly savedCards: SavedCards,
    private readonly cardRenewals: CardRenewals,
  ) {}

  async execute({ rawBody, signature, context }: ReceiveCardWebhookCommand): Promise<CardWebhookOutcome> {
    const event = this.provider.verifyWebhook(rawBody, signature);
    // A setup checkout saves a card and moves no money (docs/adr/0085-saved-cards.md).
    const setup = this.provider.verifySetupWebhook(rawBody, signature);
    if (setup !== null) return { ...IGNORED, handled: await this.savedCards.recordSetup(setup, context) };
    // A renewal charged to the saved card (docs/adr/0086-renewals-charged-to-the-saved-card.md): the PaymentIntent is
    // read back and its attempt concluded once; one that is not a renewal attempt of ours is acknowledged, no more.
    const intent = this.provider.verifyPaymentIntentWebhook(rawBody, signature);
    if (intent !== null)
      return { ...IGNORED, handled: await this.cardRenewals.onPaymentIntent(intent.paymentIntentId, context, null) };
    if (!(CARD_WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type) || event.checkoutSessionId === null)
      return IGNORED;
    const checkout = await this.provider.retrieveCheckout(event.checkoutSessionId);
    const deposit = await this.cards.depositOf(checkout.checkoutSessionId, checkout.paymentId);
    if (deposit === null) {
      this.logger.warn(`Card webhook ${event.id} names checkout ${event.checkoutSessionId}, none of ours`);
      return IGNORED;
    }
    const outcome = await this.commands.execute(
      new SettleCardPaymentCommand(
        deposit,
        {
          // The provider whose secret the signature held under: only its own checkouts take its word.
          provider: this.provider.name,
          providerEventId: event.id,
          providerEventType: event.type,
          providerPaymentId: checkout.providerPaymentId,
          providerStatus: cardStatusOf(checkout, event.type),
          amountTotalMinor: checkout.amountTotalMinor ?? 0,
          currency: checkout.currency,
        },
        context,
      ),
    );
    return {
      handled: true,
      paymentId: outcome.paymentId,
      status: outcome.status,
      credited: outcome.creditedMinor / 100,
    };
  }
}
