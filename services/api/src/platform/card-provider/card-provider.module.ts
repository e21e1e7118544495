import { Global, Module } from '@nestjs/common';
import { CardProvider } from './card-provider.port';
import { StripeCardProvider } from './stripe-card-provider';

/** The card provider's outside edge (docs/adr/0029-card-checkout.md): Stripe through its SDK, or unavailable. */
@Global()
@Module({
  providers: [{ provide: CardProvider, useClass: StripeCardProvider }],
  exports: [CardProvider],
})
export class CardProviderModule {}
