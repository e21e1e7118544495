import { SubscriptionsSchema1767700000000 } from './infrastructure/subscriptions.migrations';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const subscriptionsMigrations: Function[] = [SubscriptionsSchema1767700000000];
