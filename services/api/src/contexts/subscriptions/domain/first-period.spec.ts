import type { SubscriptionVoucherOrigin } from '@kupa/proto';
import { deciderSpec } from '../../../test-support/decider-spec';
import { activationSetsAccountExpiry, exactExpiryLatenessMs, firstPeriodEnd } from './first-period';
import { activateSubscription, subscriptionEvolution } from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import { purchasedEvent } from './subscription-events.fixtures';

/** ADR 0136: the first period counts from the purchase when the account came promptly with its end as the expiry. */
const subscriptionId = '55555555-5555-4555-8555-555555555555';
const userUuid = '11111111-1111-4111-8111-111111111111';
const boughtAt = new Date('2026-01-31T10:00:00Z');
/** What the `CREATE_ACCOUNT` call sent: one month from the purchase, clamped to February's last day. */
const sentExpiry = new Date('2026-02-28T10:00:00Z');
const minutesAfterPurchase = (minutes: number) => new Date(boughtAt.getTime() + minutes * 60_000);

const purchased = purchasedEvent();
const trialPurchased = {
  type: 'SubscriptionPurchased',
  data: { ...purchased.data, type: 'TRIAL_FOR_NEW_USERS', durationInMonths: 0, trialDays: 3, paymentId: null },
} as SubscriptionEvent;
const voucher: SubscriptionVoucherOrigin = { batchId: 'b1', codeIndex: 0, days: 30, label: 'Spring' };
const voucherPurchased = {
  type: 'SubscriptionPurchased',
  data: { ...purchased.data, priceMinor: 0, paymentId: null, voucher },
} as SubscriptionEvent;

const activation = (data: { startDate: Date; endDate: Date; at: Date; from: 'PURCHASE' | 'ACTIVATION' }) =>
  ({
    type: 'SubscriptionActivated',
    data: {
      subscriptionId,
      userUuid,
      startDate: data.startDate.toISOString(),
      endDate: data.endDate.toISOString(),
      activatedAt: data.at.toISOString(),
      periodFrom: data.from,
    },
  }) as SubscriptionEvent;

const { given } = deciderSpec(subscriptionEvolution);

describe('The first period (ADR 0136)', () => {
  it('counts from the purchase, ending at the expiry the account was created with, when the account came promptly', () => {
    const at = minutesAfterPurchase(2);
    given([purchased])
      .when((state) => activateSubscription({ at, accountExpiresAt: sentExpiry }, state))
      .then([activation({ startDate: boughtAt, endDate: sentExpiry, at, from: 'PURCHASE' })]);
  });

  it('still counts from the purchase at exactly the lateness bound, and from the activation one millisecond later', () => {
    const atBound = new Date(boughtAt.getTime() + exactExpiryLatenessMs);
    given([purchased])
      .when((state) => activateSubscription({ at: atBound, accountExpiresAt: sentExpiry }, state))
      .then([activation({ startDate: boughtAt, endDate: sentExpiry, at: atBound, from: 'PURCHASE' })]);
    const late = new Date(atBound.getTime() + 1);
    given([purchased])
      .when((state) => activateSubscription({ at: late, accountExpiresAt: sentExpiry }, state))
      .then([
        // The client loses nothing to the delay: a whole month from the activation (clamped to February as well).
        activation({ startDate: late, endDate: new Date('2026-02-28T10:10:00.001Z'), at: late, from: 'ACTIVATION' }),
      ]);
  });

  it('counts from the activation when the account was created with another expiry, or with one not known', () => {
    const at = minutesAfterPurchase(1);
    const fromActivation = activation({
      startDate: at,
      endDate: new Date('2026-02-28T10:01:00Z'),
      at,
      from: 'ACTIVATION',
    });
    given([purchased])
      .when((state) => activateSubscription({ at, accountExpiresAt: new Date('2026-03-01T10:00:00Z') }, state))
      .then([fromActivation]);
    given([purchased])
      .when((state) => activateSubscription({ at }, state))
      .then([fromActivation]);
  });

  it("counts a trial's days and a day voucher's days from the purchase alike", () => {
    const at = minutesAfterPurchase(3);
    const trialEnd = new Date('2026-02-03T10:00:00Z');
    given([trialPurchased])
      .when((state) => activateSubscription({ at, accountExpiresAt: trialEnd }, state))
      .then([activation({ startDate: boughtAt, endDate: trialEnd, at, from: 'PURCHASE' })]);
    const voucherEnd = new Date('2026-03-02T10:00:00Z');
    given([voucherPurchased])
      .when((state) => activateSubscription({ at, accountExpiresAt: voucherEnd }, state))
      .then([activation({ startDate: boughtAt, endDate: voucherEnd, at, from: 'PURCHASE' })]);
  });

  it('is the end the CREATE_ACCOUNT call sends: one first period from the purchase', () => {
    const terms = { durationInMonths: 1, trialDays: null, voucherDays: null };
    expect(firstPeriodEnd(terms, boughtAt)).toEqual(sentExpiry);
    expect(firstPeriodEnd({ ...terms, trialDays: 3 }, boughtAt)).toEqual(new Date('2026-02-03T10:00:00Z'));
    expect(firstPeriodEnd({ ...terms, voucherDays: 30 }, boughtAt)).toEqual(new Date('2026-03-02T10:00:00Z'));
  });

  it('leaves no second provisioning job after an activation from the purchase; one from itself, or an old one, gets it', () => {
    expect(activationSetsAccountExpiry({ periodFrom: 'PURCHASE' })).toBe(false);
    expect(activationSetsAccountExpiry({ periodFrom: 'ACTIVATION' })).toBe(true);
    // Recorded before ADR 0136: no periodFrom, and its period counted from the activation.
    expect(activationSetsAccountExpiry({})).toBe(true);
  });
});
