import {
  SubscriptionsDetailsAndSecrets1767700000100,
  SubscriptionSecretsSealed1768200000000,
  SubscriptionsGraceWindow1769900008100,
  SubscriptionRenewalFunding1768700008500,
  SubscriptionCardRenewalOpen1768700008600,
  SubscriptionsSchema1767700000000,
} from './infrastructure/subscriptions.migrations';
import {
  ProvisioningCausedByEventIds1768400005900,
  ProvisioningJobsSeqNotUnique1772500013500,
} from './infrastructure/provisioning/provisioning.migrations';
import { DepositPurchasesReadModel1768500000300 } from './infrastructure/deposit-purchases.migrations';
import { SubscriptionPaymentsReadModel1768500007700 } from './infrastructure/subscription-payments.migrations';
import { SubscriptionPlanNames1770600003220 } from './infrastructure/subscription-plan-names.migrations';
import {
  PromoCodeReservations1770000008820,
  PromoCodesReadModel1770000008800,
} from './infrastructure/promo-codes.migrations';

export { SubscriptionsModule } from './subscriptions.module';
export { SubscriptionSecrets } from './infrastructure/subscription-secrets';
export {
  SubscriptionProvisioningOutcomes,
  SubscriptionProvisioningSecrets,
} from './application/subscription-provisioning';
export { SubscriptionReader } from './projections/subscriptions/subscription-reader';
/** Days added to a subscription without a payment (ADR 0089): staff, the bulk operation, day vouchers. */
export {
  decideSubscriptionExtension,
  SubscriptionExtensions,
  type SubscriptionExtensionOutcome,
  type SubscriptionExtensionRequest,
  subscriptionExtensionStream,
} from './application/subscription-extensions';
/** The subscriptions list's filters, for the bulk operation's selection (ADR 0090). */
export { SubscriptionSelection, type SubscriptionSelectionResult } from './application/subscription-selection';
export { type SubscriptionFilter, SubscriptionFilterDto } from './queries/search-subscriptions/subscription-filter';
export { subscriptionFigures, type SubscriptionFigures } from './queries/subscription-figures/subscription-figures';
export { discountFigures, type DiscountFigures } from './queries/discount-figures/discount-figures';
export { subscriptionAttention } from './queries/attention-queue/subscription-attention';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const subscriptionsMigrations: Function[] = [
  SubscriptionsSchema1767700000000,
  SubscriptionsDetailsAndSecrets1767700000100,
  SubscriptionSecretsSealed1768200000000,
  ProvisioningCausedByEventIds1768400005900,
  DepositPurchasesReadModel1768500000300,
  SubscriptionPaymentsReadModel1768500007700,
  SubscriptionsGraceWindow1769900008100,
  SubscriptionRenewalFunding1768700008500,
  SubscriptionCardRenewalOpen1768700008600,
  PromoCodesReadModel1770000008800,
  PromoCodeReservations1770000008820,
  SubscriptionPlanNames1770600003220,
  ProvisioningJobsSeqNotUnique1772500013500,
];

// Provisioning at the streaming service (infrastructure/provisioning/): its module and tables.
export { ProvisioningModule } from './infrastructure/provisioning/provisioning.module';
export { ProvisioningSchema1767800000000 } from './infrastructure/provisioning/provisioning.migrations';

/** The embedded demo's history goes through the same commands as real traffic (ADR 0075). */
export { BuySubscriptionCommand } from './commands/buy-subscription/buy-subscription.command';
export { CreateCardCheckoutCommand } from './commands/create-card-checkout/create-card-checkout.command';
export { CancelSubscriptionCommand } from './commands/cancel-subscription/cancel-subscription.command';
export { StartCardSetupCommand } from './commands/start-card-setup/start-card-setup.command';
export { ChooseRenewalFundingCommand } from './commands/choose-renewal-funding/choose-renewal-funding.command';
/** The demo seed moves its own clock through months and runs the renewal sweep at each step (ADR 0075). */
export { SUBSCRIPTION_RENEWALS_SWEEP } from './processors/subscription-renewals/subscription-renewals.sweep';
/** The reminders before a renewal or an end (ADR 0083), run by the demo seed and the specs on their clock. */
export { RENEWAL_REMINDERS_SWEEP } from './processors/renewal-reminders/renewal-reminders.sweep';
