import type { SubscriptionEvent, SubscriptionPurchasedData } from './subscription.events';

/**
 * Dana's purchase of the one-month recurrent Gold package for $10.00, paid by payment 7, as the domain specs give
 * it: each spec passes only what it is about (the instant, the price, a voucher), so the rest reads the same everywhere.
 */
export function purchasedEvent(changes: Partial<SubscriptionPurchasedData> = {}): SubscriptionEvent {
  return {
    type: 'SubscriptionPurchased',
    data: {
      subscriptionId: '55555555-5555-4555-8555-555555555555',
      userUuid: '11111111-1111-4111-8111-111111111111',
      userEmail: 'dana@example.com',
      type: 'REGULAR',
      planId: '44444444-4444-4444-8444-444444444444',
      planName: 'Gold',
      durationInMonths: 1,
      trialDays: null,
      priceMinor: 1000,
      listPriceMinor: 1000,
      discountPercent: 0,
      currency: 'USD',
      isRecurrent: true,
      login: 'dana.tv',
      paymentId: 7,
      purchasedAt: '2026-01-31T10:00:00.000Z',
      ...changes,
    },
  };
}
