import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  activateSubscription,
  purchaseWithDayVoucher,
  renewSubscription,
  subscriptionEvolution,
} from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import type { ExistingSubscription } from './subscription.state';
import { purchasedEvent } from './subscription-events.fixtures';

const subscriptionId = '55555555-5555-4555-8555-555555555555';
const userUuid = '11111111-1111-4111-8111-111111111111';
const batchId = '66666666-6666-4666-8666-666666666666';
const at = new Date('2026-02-10T09:00:00Z');
const gold = {
  planId: '44444444-4444-4444-8444-444444444444',
  planName: 'Gold',
  durationInMonths: 1,
  priceMinor: 1000,
  currency: 'USD' as const,
  isRecurrent: true,
};
const voucher = { batchId, codeIndex: 2, days: 30, label: 'Fair 2026' };
const start = {
  subscriptionId,
  userUuid,
  userEmail: 'dana@example.com',
  plan: gold,
  voucher,
  login: 'dana.tv',
  password: 'Secret-pass-1',
  at,
};
const purchased = purchasedEvent({
  planId: gold.planId,
  priceMinor: 0,
  paymentId: null,
  purchasedAt: at.toISOString(),
  voucher,
});

const { given } = deciderSpec(subscriptionEvolution);

describe('a subscription started by a day voucher (ADR 0089)', () => {
  it('is purchased for nothing, PENDING, naming the code it came from; the list price stays the package’s', () => {
    given([])
      .when((state) => purchaseWithDayVoucher(start, state))
      .then([purchased]);
    expect(fold(subscriptionEvolution, [purchased])).toMatchObject({ status: 'PENDING', voucherDays: 30 });
  });

  it('gets the code’s days as its first period when the streaming service has the account', () => {
    const activatedAt = new Date('2026-02-10T09:05:00Z');
    given([purchased])
      .when((state) => activateSubscription({ at: activatedAt }, state))
      .then([
        {
          type: 'SubscriptionActivated',
          data: {
            subscriptionId,
            userUuid,
            startDate: activatedAt.toISOString(),
            endDate: '2026-03-12T09:05:00.000Z',
            activatedAt: activatedAt.toISOString(),
            periodFrom: 'ACTIVATION',
          },
        },
      ]);
  });

  it('renews afterwards at the package’s price, by the package’s months', () => {
    const activated: SubscriptionEvent = {
      type: 'SubscriptionActivated',
      data: {
        subscriptionId,
        userUuid,
        startDate: '2026-02-10T09:05:00.000Z',
        endDate: '2026-03-12T09:05:00.000Z',
        activatedAt: '2026-02-10T09:05:00.000Z',
      },
    };
    const [renewed] = renewSubscription(
      { paymentId: 9, discountPercent: 0, at: new Date('2026-03-10T00:00:00Z'), automatic: true },
      fold(subscriptionEvolution, [purchased, activated]) as ExistingSubscription,
    );
    expect(renewed).toMatchObject({
      type: 'SubscriptionRenewed',
      data: { priceMinor: 1000, endDate: '2026-04-12T09:05:00.000Z' },
    });
  });

  it('refuses a login or password the service would not take, as a purchase does', () => {
    given([])
      .when((state) => purchaseWithDayVoucher({ ...start, login: 'a' }, state))
      .thenRejects('error.validation.subscription.login');
    given([])
      .when((state) => purchaseWithDayVoucher({ ...start, password: 'x' }, state))
      .thenRejects('error.validation.subscription.password');
  });
});
