export {
  CARD_WEBHOOK_EVENT_TYPES,
  CARD_WEBHOOK_SIGNATURE_HEADER,
  type CardCheckout,
  type CardCheckoutRequest,
  type CardCheckoutState,
  type CardCustomerRequest,
  CardProvider,
  type CardSetupRequest,
  type CardSetupState,
  type OffSessionChargeOutcome,
  type OffSessionChargeRequest,
  type OffSessionPaymentState,
  PAYMENT_INTENT_WEBHOOK_EVENT_TYPES,
  type SavedPaymentMethod,
  cardStatusOf,
  type CardWebhookEvent,
} from './card-provider.port';
export { CardProviderModule } from './card-provider.module';
export { CARD_PROVIDER_CALL_TIMEOUT_MS, stripeConnectionOf, StripeCardProvider } from './stripe-card-provider';
export {
  CardProviderSettings,
  SANDBOX_CARD_PATH,
  SANDBOX_CHECKOUT_PAGE_PATH,
  SANDBOX_SETUP_PAGE_PATH,
} from './card-provider-settings';
export { SANDBOX_TEST_CARDS, type SandboxTestCard } from './sandbox/saved-card-wire';
export {
  type CheckoutSessionWire,
  checkoutSessionEvent,
  checkoutSessionRequestOf,
  expiredCheckoutSession,
  paidCheckoutSession,
  stripeEventPayload,
} from './sandbox/checkout-session';
