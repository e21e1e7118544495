import { SubscriptionsSchema1767700000000 } from './infrastructure/subscriptions.migrations';
export { subscriptionFigures, type SubscriptionFigures } from './queries/subscription-figures/subscription-figures';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const subscriptionsMigrations: Function[] = [SubscriptionsSchema1767700000000];

// Provisioning at the streaming service (infrastructure/provisioning/): its module and tables.
export { ProvisioningModule } from './infrastructure/provisioning/provisioning.module';
export { ProvisioningSchema1767800000000 } from './infrastructure/provisioning/provisioning.migrations';
