import { Global, Module } from '@nestjs/common';
import { CardProviderSettings } from './card-provider-settings';
import { CardProvider } from './card-provider.port';
import { SandboxCardController } from './sandbox/sandbox-card.controller';
import { SandboxCard } from './sandbox/sandbox-card.service';
import { SandboxSavedCards } from './sandbox/sandbox-saved-cards.service';
import { StripeCardProvider } from './stripe-card-provider';

/**
 * The card provider's outside edge (docs/adr/0029-card-checkout.md): Stripe through its SDK, the sandbox card that
 * stands in for Stripe when `STRIPE_SECRET_KEY` is unset and the sandboxes run (docs/adr/0080-sandbox-card-checkout.md),
 * or unavailable.
 */
@Global()
@Module({
  controllers: [SandboxCardController],
  providers: [
    CardProviderSettings,
    SandboxCard,
    SandboxSavedCards,
    { provide: CardProvider, useClass: StripeCardProvider },
  ],
  exports: [CardProvider, CardProviderSettings],
})
export class CardProviderModule {}
