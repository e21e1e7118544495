import { discountedPriceMinor } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  renewalMissingMinor,
  activateSubscription,
  cancelSubscription,
  changeLogin,
  changePassword,
  chooseRenewalFunding,
  deactivateRecurrence,
  endSubscription,
  endSubscriptionForRefund,
  failProvisioning,
  fallBackToBalanceFunding,
  nextPaymentDateOf,
  purchaseSubscription,
  purchaseTrial,
  recordRenewalFailure,
  renewSubscription,
  resumeSubscription,
  subscriptionEvolution,
} from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import { addCalendarMonths } from './subscription-periods';
import type { ExistingSubscription } from './subscription.state';
import { purchasedEvent } from './subscription-events.fixtures';

const subscriptionId = '55555555-5555-4555-8555-555555555555';
/** What the end step is told about the owner's money: no discount, 2.00 on the balance (the price is 10.00). */
const shortBy800 = { discountPercent: 0, balanceMinor: 200 };
const userUuid = '11111111-1111-4111-8111-111111111111';
const planId = '44444444-4444-4444-8444-444444444444';
const boughtAt = new Date('2026-01-31T10:00:00Z');
const activatedAt = new Date('2026-01-31T10:05:00Z');
const plan = {
  planId,
  planName: 'Gold',
  durationInMonths: 1,
  priceMinor: 1000,
  currency: 'USD' as const,
  isRecurrent: true,
};

const purchase = {
  subscriptionId,
  userUuid,
  userEmail: 'dana@example.com',
  plan,
  discountPercent: 0,
  paymentId: 7,
  login: 'dana.tv',
  password: 'secret-1',
  at: boughtAt,
};

const purchased = purchasedEvent();
const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    subscriptionId,
    userUuid,
    startDate: activatedAt.toISOString(),
    // 31 January + one month is clamped to the last day of February.
    endDate: '2026-02-28T10:05:00.000Z',
    activatedAt: activatedAt.toISOString(),
    periodFrom: 'ACTIVATION',
  },
};
const cancelled: SubscriptionEvent = {
  type: 'SubscriptionCancelled',
  data: { subscriptionId, userUuid, cancelledAt: '2026-02-01T00:00:00.000Z' },
};
const deactivated: SubscriptionEvent = {
  type: 'SubscriptionRecurrenceDeactivated',
  data: { subscriptionId, userUuid, deactivatedAt: '2026-02-01T00:00:00.000Z' },
};
const expired: SubscriptionEvent = {
  type: 'SubscriptionEnded',
  data: { subscriptionId, userUuid, status: 'EXPIRED', endedAt: '2026-02-28T10:05:00.000Z' },
};
const trialPurchased: SubscriptionEvent = {
  type: 'SubscriptionPurchased',
  data: {
    ...purchased.data,
    type: 'TRIAL_FOR_NEW_USERS',
    planId: null,
    planName: null,
    durationInMonths: 0,
    trialDays: 3,
    priceMinor: 0,
    listPriceMinor: 0,
    isRecurrent: false,
    paymentId: null,
  },
} as SubscriptionEvent;
const trialActivated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    subscriptionId,
    userUuid,
    startDate: activatedAt.toISOString(),
    endDate: '2026-02-03T10:05:00.000Z',
    activatedAt: activatedAt.toISOString(),
    periodFrom: 'ACTIVATION',
  },
};

const { given } = deciderSpec(subscriptionEvolution);
const stateOf = (history: SubscriptionEvent[]) => fold(subscriptionEvolution, history) as ExistingSubscription;
const renew = (at: Date, overrides: { discountPercent?: number; automatic?: boolean } = {}) => ({
  paymentId: 9,
  discountPercent: 0,
  at,
  automatic: false,
  ...overrides,
});

describe('subscription decider', () => {
  describe('PurchaseSubscription', () => {
    it('buys a package PENDING, at its price, with the payment and the login, never the password', () => {
      given([])
        .when((state) => purchaseSubscription(purchase, state))
        .then([purchased]);
      const [event] = purchaseSubscription(purchase, subscriptionEvolution.initialState());
      expect(JSON.stringify(event)).not.toContain('secret-1');
      expect(stateOf([purchased])).toMatchObject({ status: 'PENDING', startDate: null, endDate: null });
    });

    it('charges the discounted price and records the list price and the percent', () => {
      given([])
        .when((state) =>
          purchaseSubscription({ ...purchase, plan: { ...plan, priceMinor: 2999 }, discountPercent: 10 }, state),
        )
        .then([
          {
            type: 'SubscriptionPurchased',
            data: { ...purchased.data, priceMinor: 2699, listPriceMinor: 2999, discountPercent: 10 },
          } as SubscriptionEvent,
        ]);
      expect(discountedPriceMinor(2999, 10)).toBe(2699);
    });

    it('refuses a login outside 6–64 of a-z, 0-9, dot, underscore and hyphen', () => {
      for (const login of ['short', 'UPPER.case', 'with space', 'x'.repeat(65), 'dana@tv']) {
        given([])
          .when((state) => purchaseSubscription({ ...purchase, login }, state))
          .thenRejects('error.validation.subscription.login', { field: 'login' });
      }
      given([])
        .when((state) => purchaseSubscription({ ...purchase, login: 'a.b_c-1' }, state))
        .then([{ type: 'SubscriptionPurchased', data: { ...purchased.data, login: 'a.b_c-1' } } as SubscriptionEvent]);
    });

    it('refuses a password shorter than 4 or with characters outside printable ASCII', () => {
      for (const password of ['abc', 'pässwörd', 'tab\there']) {
        given([])
          .when((state) => purchaseSubscription({ ...purchase, password }, state))
          .thenRejects('error.validation.subscription.password', { field: 'password' });
      }
    });
  });

  describe('PurchaseTrial', () => {
    const trial = {
      subscriptionId,
      userUuid,
      userEmail: 'dana@example.com',
      login: 'dana.tv',
      password: 'pw12',
      at: boughtAt,
    };

    it('takes the free trial: TRIAL_FOR_NEW_USERS, three days, no package, no payment, not recurrent', () => {
      given([])
        .when((state) => purchaseTrial(trial, state))
        .then([trialPurchased]);
    });

    it('holds the trial to the same login and password rules', () => {
      given([])
        .when((state) => purchaseTrial({ ...trial, login: 'Dana' }, state))
        .thenRejects('error.validation.subscription.login');
      given([])
        .when((state) => purchaseTrial({ ...trial, password: 'pw' }, state))
        .thenRejects('error.validation.subscription.password');
    });
  });

  describe('Activate', () => {
    it('starts the first period now, ending a calendar month later, clamped to the month', () => {
      given([purchased])
        .when((state) => activateSubscription({ at: activatedAt }, state))
        .then([activated]);
      expect(stateOf([purchased, activated])).toMatchObject({ status: 'ACTIVE', endDate: '2026-02-28T10:05:00.000Z' });
    });

    it('starts a trial for three days', () => {
      given([trialPurchased])
        .when((state) => activateSubscription({ at: activatedAt }, state))
        .then([trialActivated]);
    });

    it('does nothing for a subscription that already started or ended (a retrying processor)', () => {
      given([purchased, activated])
        .when((state) => activateSubscription({ at: activatedAt }, state))
        .then([]);
      given([purchased, activated, expired])
        .when((state) => activateSubscription({ at: activatedAt }, state))
        .then([]);
    });

    it('shows a subscription switched off before it started as UNSUBSCRIBED', () => {
      expect(stateOf([purchased, deactivated, activated]).status).toBe('UNSUBSCRIBED');
    });

    it('refuses a subscription that does not exist', () => {
      given([])
        .when((state) => activateSubscription({ at: activatedAt }, state))
        .thenRejects('error.subscription.not.found');
    });
  });

  describe('Renew', () => {
    it('extends from the end when renewed before it: no paid day is lost', () => {
      const at = new Date('2026-02-25T10:05:00Z');
      given([purchased, activated])
        .when((state) => renewSubscription(renew(at), state))
        .then([
          {
            type: 'SubscriptionRenewed',
            data: {
              subscriptionId,
              userUuid,
              paymentId: 9,
              priceMinor: 1000,
              listPriceMinor: 1000,
              discountPercent: 0,
              previousEndDate: '2026-02-28T10:05:00.000Z',
              endDate: '2026-03-28T10:05:00.000Z',
              renewedAt: at.toISOString(),
              automatic: false,
            },
          },
        ]);
    });

    it('extends from now when renewed after the end: no free days', () => {
      const at = new Date('2026-03-10T00:00:00Z');
      const [event] = renewSubscription(renew(at), stateOf([purchased, activated]));
      expect(event.data).toMatchObject({ endDate: '2026-04-10T00:00:00.000Z' });
    });

    it('applies the referral discount of the moment to the price as bought', () => {
      const [event] = renewSubscription(
        renew(new Date('2026-02-26T00:00:00Z'), { discountPercent: 15 }),
        stateOf([purchased, activated]),
      );
      expect(event.data).toMatchObject({ priceMinor: 850, listPriceMinor: 1000, discountPercent: 15 });
    });

    it('pays at most one period ahead: a second renewal right after the first is refused', () => {
      const at = new Date('2026-02-01T00:00:00Z');
      // Right after activation the end is less than a month away, so one renewal goes through…
      const [first] = renewSubscription(renew(at), stateOf([purchased, activated]));
      expect(first.data).toMatchObject({ endDate: '2026-03-28T10:05:00.000Z' });
      // …and then the end is a full period ahead of now: the second of two renewals at once is refused.
      given([purchased, activated, first])
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.already.renewed');
    });

    it('renews a cancelled subscription on request, which withdraws the cancellation', () => {
      const at = new Date('2026-02-26T00:00:00Z');
      const [event] = renewSubscription(renew(at), stateOf([purchased, activated, cancelled]));
      expect(stateOf([purchased, activated, cancelled, event])).toMatchObject({
        status: 'ACTIVE',
        cancelAtPeriodEnd: false,
      });
    });

    it('renews an UNSUBSCRIBED subscription on request, and it stays UNSUBSCRIBED', () => {
      const at = new Date('2026-02-26T00:00:00Z');
      const [event] = renewSubscription(renew(at), stateOf([purchased, activated, deactivated]));
      const after = stateOf([purchased, activated, deactivated, event]);
      expect(after).toMatchObject({ status: 'UNSUBSCRIBED', endDate: '2026-03-28T10:05:00.000Z' });
      expect(nextPaymentDateOf(after)).toBeNull();
    });

    it('charges automatically only recurrent ACTIVE subscriptions nobody cancelled or switched off', () => {
      const at = new Date('2026-02-25T10:05:00Z');
      expect(renewSubscription(renew(at, { automatic: true }), stateOf([purchased, activated]))).toHaveLength(1);
      for (const history of [
        [purchased, activated, cancelled],
        [purchased, activated, deactivated],
        [{ ...purchased, data: { ...purchased.data, isRecurrent: false } } as SubscriptionEvent, activated],
      ]) {
        given(history)
          .when((state) => renewSubscription(renew(at, { automatic: true }), state))
          .thenRejects('error.subscription.not.renewable');
      }
    });

    it('refuses a PENDING subscription, a trial, an ended one and a missing one', () => {
      const at = new Date('2026-02-25T00:00:00Z');
      given([purchased])
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.not.renewable');
      given([trialPurchased, trialActivated])
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.not.renewable');
      given([purchased, activated, expired])
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.ended');
      given([])
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.not.found');
    });
  });

  describe('RecordRenewalFailure', () => {
    const failure = {
      missingMinor: 250,
      nextAttemptAt: new Date('2026-02-26T10:05:00Z'),
      at: new Date('2026-02-25T10:05:00Z'),
    };

    it('records the missing amount and the next attempt', () => {
      given([purchased, activated])
        .when((state) => recordRenewalFailure(failure, state))
        .then([
          {
            type: 'SubscriptionRenewalFailed',
            data: {
              subscriptionId,
              userUuid,
              missingMinor: 250,
              attemptedAt: '2026-02-25T10:05:00.000Z',
              nextAttemptAt: '2026-02-26T10:05:00.000Z',
            },
          },
        ]);
    });

    it("records nothing while the last failure's next attempt is ahead, and the next failure once it is due", () => {
      const failed: SubscriptionEvent = {
        type: 'SubscriptionRenewalFailed',
        data: {
          subscriptionId,
          userUuid,
          missingMinor: 250,
          attemptedAt: '2026-02-25T10:05:00.000Z',
          nextAttemptAt: '2026-02-26T10:05:00.000Z',
        },
      };
      given([purchased, activated, failed])
        .when((state) => recordRenewalFailure({ ...failure, at: new Date('2026-02-26T10:04:59Z') }, state))
        .then([]);
      given([purchased, activated, failed])
        .when((state) =>
          recordRenewalFailure(
            {
              missingMinor: 100,
              at: new Date('2026-02-26T10:05:00Z'),
              nextAttemptAt: new Date('2026-02-27T10:05:00Z'),
            },
            state,
          ),
        )
        .then([
          {
            type: 'SubscriptionRenewalFailed',
            data: {
              subscriptionId,
              userUuid,
              missingMinor: 100,
              attemptedAt: '2026-02-26T10:05:00.000Z',
              nextAttemptAt: '2026-02-27T10:05:00.000Z',
            },
          },
        ]);
    });

    it('refuses a subscription the sweep must not charge', () => {
      given([purchased, activated, deactivated])
        .when((state) => recordRenewalFailure(failure, state))
        .thenRejects('error.subscription.not.renewable');
      given([purchased, activated, expired])
        .when((state) => recordRenewalFailure(failure, state))
        .thenRejects('error.subscription.ended');
    });
  });

  describe('Cancel', () => {
    const at = new Date('2026-02-01T00:00:00Z');

    it('keeps it ACTIVE to its end date with cancelAtPeriodEnd, and no next payment', () => {
      given([purchased, activated])
        .when((state) => cancelSubscription({ at }, state))
        .then([cancelled]);
      const after = stateOf([purchased, activated, cancelled]);
      expect(after).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true });
      expect(nextPaymentDateOf(after)).toBeNull();
    });

    it('cancels a PENDING one too: it will run its period and end CANCELED', () => {
      given([purchased])
        .when((state) => cancelSubscription({ at }, state))
        .then([cancelled]);
    });

    it('records nothing when already cancelled', () => {
      given([purchased, activated, cancelled])
        .when((state) => cancelSubscription({ at }, state))
        .then([]);
    });

    it('refuses a trial, an ended subscription and a missing one', () => {
      given([trialPurchased, trialActivated])
        .when((state) => cancelSubscription({ at }, state))
        .thenRejects('error.trial.cannot.be.cancelled');
      given([purchased, activated, expired])
        .when((state) => cancelSubscription({ at }, state))
        .thenRejects('error.subscription.ended');
      given([])
        .when((state) => cancelSubscription({ at }, state))
        .thenRejects('error.subscription.not.found');
    });
  });

  describe('Resume', () => {
    const cancelledAt = new Date('2026-02-01T00:00:00Z');
    const endedCancelled: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId, userUuid, status: 'CANCELED', endedAt: '2026-02-28T10:05:00.000Z' },
    };
    const resumed = (at: Date): SubscriptionEvent => ({
      type: 'SubscriptionResumed',
      data: { subscriptionId, userUuid, resumedAt: at.toISOString() },
    });

    it('given a cancelled ACTIVE one before its end, when resumed, it runs on and renews by itself again', () => {
      const at = new Date('2026-02-20T09:00:00Z');
      given([purchased, activated, cancelled])
        .when((state) => resumeSubscription({ at }, state))
        .then([resumed(at)]);
      const after = stateOf([purchased, activated, cancelled, resumed(at)]);
      expect(after).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: false, endDate: '2026-02-28T10:05:00.000Z' });
      expect(nextPaymentDateOf(after)).toBe('2026-02-25T10:05:00.000Z');
    });

    it('given one cancelled and switched off, when resumed, it no longer ends CANCELED but still never renews', () => {
      const at = new Date('2026-02-20T09:00:00Z');
      given([purchased, activated, deactivated, cancelled])
        .when((state) => resumeSubscription({ at }, state))
        .then([resumed(at)]);
      const after = stateOf([purchased, activated, deactivated, cancelled, resumed(at)]);
      expect(after).toMatchObject({ status: 'UNSUBSCRIBED', cancelAtPeriodEnd: false });
      expect(nextPaymentDateOf(after)).toBeNull();
    });

    it('given a cancelled one at or after its end date, when resumed, refuses: too late', () => {
      given([purchased, activated, cancelled])
        .when((state) => resumeSubscription({ at: new Date('2026-02-28T10:05:00Z') }, state))
        .thenRejects('error.subscription.resume.too.late');
      given([purchased, activated, cancelled])
        .when((state) => resumeSubscription({ at: new Date('2026-03-01T00:00:00Z') }, state))
        .thenRejects('error.subscription.resume.too.late');
    });

    it('given one that ended cancelled, when resumed, refuses: it ended', () => {
      given([purchased, activated, cancelled, endedCancelled])
        .when((state) => resumeSubscription({ at: new Date('2026-03-01T00:00:00Z') }, state))
        .thenRejects('error.subscription.ended');
    });

    it('given one not cancelled (or resumed already), when resumed, refuses: nothing to resume', () => {
      const at = new Date('2026-02-20T09:00:00Z');
      given([purchased, activated])
        .when((state) => resumeSubscription({ at }, state))
        .thenRejects('error.subscription.not.cancelled');
      given([purchased, activated, cancelled, resumed(at)])
        .when((state) => resumeSubscription({ at }, state))
        .thenRejects('error.subscription.not.cancelled');
      given([purchased, activated, deactivated])
        .when((state) => resumeSubscription({ at }, state))
        .thenRejects('error.subscription.not.cancelled');
      given([])
        .when((state) => resumeSubscription({ at }, state))
        .thenRejects('error.subscription.not.found');
    });

    it('given a cancelled PENDING one (no end yet), when resumed, withdraws the cancellation', () => {
      given([purchased, cancelled])
        .when((state) => resumeSubscription({ at: cancelledAt }, state))
        .then([resumed(cancelledAt)]);
    });
  });

  describe('DeactivateRecurrence', () => {
    const at = new Date('2026-02-01T00:00:00Z');

    it('makes a recurrent ACTIVE subscription UNSUBSCRIBED, keeping its end date', () => {
      given([purchased, activated])
        .when((state) => deactivateRecurrence({ at }, state))
        .then([deactivated]);
      expect(stateOf([purchased, activated, deactivated])).toMatchObject({
        status: 'UNSUBSCRIBED',
        endDate: '2026-02-28T10:05:00.000Z',
      });
    });

    it('records nothing for a subscription that does not recur, or no longer does', () => {
      given([trialPurchased, trialActivated])
        .when((state) => deactivateRecurrence({ at }, state))
        .then([]);
      given([purchased, activated, deactivated])
        .when((state) => deactivateRecurrence({ at }, state))
        .then([]);
    });

    it('refuses an ended subscription', () => {
      given([purchased, activated, expired])
        .when((state) => deactivateRecurrence({ at }, state))
        .thenRejects('error.subscription.ended');
    });
  });

  describe('EndForRefund (ADR 0092)', () => {
    const at = new Date('2026-02-10T10:00:00Z');
    const endedNow: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId, userUuid, status: 'CANCELED', endedAt: at.toISOString() },
    };

    it('ends an ACTIVE subscription CANCELED at once, long before its end date', () => {
      given([purchased, activated])
        .when((state) => endSubscriptionForRefund({ at }, state))
        .then([endedNow]);
    });

    it('ends a cancelled or a PENDING one too', () => {
      given([purchased, activated, cancelled])
        .when((state) => endSubscriptionForRefund({ at }, state))
        .then([endedNow]);
      given([purchased])
        .when((state) => endSubscriptionForRefund({ at }, state))
        .then([endedNow]);
    });

    it('leaves one that ended as it is, and refuses an unknown one', () => {
      given([purchased, activated, expired])
        .when((state) => endSubscriptionForRefund({ at }, state))
        .then([]);
      given([])
        .when((state) => endSubscriptionForRefund({ at }, state))
        .thenRejects('error.subscription.not.found');
    });
  });

  describe('End', () => {
    const end = new Date('2026-02-28T10:05:00Z');
    const graceDays = 3;
    const oneOff = { ...purchased, data: { ...purchased.data, isRecurrent: false } } as SubscriptionEvent;

    it('expires a package that does not recur at the end date', () => {
      given([oneOff, activated])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([expired]);
    });

    it('ends CANCELED when it was cancelled, also after it was switched off', () => {
      const canceledEnd: SubscriptionEvent = {
        type: 'SubscriptionEnded',
        data: { subscriptionId, userUuid, status: 'CANCELED', endedAt: end.toISOString() },
      };
      given([purchased, activated, cancelled])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([canceledEnd]);
      given([purchased, activated, deactivated, cancelled])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([canceledEnd]);
    });

    it('expires an UNSUBSCRIBED one at its end date', () => {
      given([purchased, activated, deactivated])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([expired]);
    });

    it('expires a trial at its end date', () => {
      const trialEnd = new Date('2026-02-03T10:05:00Z');
      given([trialPurchased, trialActivated])
        .when((state) => endSubscription({ at: trialEnd, graceDays, ...shortBy800 }, state))
        .then([
          {
            type: 'SubscriptionEnded',
            data: { ...expired.data, endedAt: trialEnd.toISOString() },
          } as SubscriptionEvent,
        ]);
    });

    it('does nothing before the end date, for a PENDING one, or once ended', () => {
      given([purchased, activated])
        .when((state) => endSubscription({ at: new Date(end.getTime() - 1), graceDays, ...shortBy800 }, state))
        .then([]);
      given([purchased])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([]);
      given([purchased, activated, expired])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([]);
    });
  });

  describe('Grace window (ADR 0081)', () => {
    const end = new Date('2026-02-28T10:05:00Z');
    const graceDays = 3;
    const graceEndsAt = new Date('2026-03-03T10:05:00Z');
    const lapsed: SubscriptionEvent = {
      type: 'SubscriptionLapsed',
      data: {
        subscriptionId,
        userUuid,
        endDate: end.toISOString(),
        graceEndsAt: graceEndsAt.toISOString(),
        lapsedAt: end.toISOString(),
        missingMinor: 800,
      },
    };
    const inGrace = new Date('2026-03-01T12:00:00Z');

    it('lapses a subscription that renews by itself into GRACE at its end, the window fixed from its end date', () => {
      given([purchased, activated])
        .when((state) => endSubscription({ at: end, graceDays, ...shortBy800 }, state))
        .then([lapsed]);
      const late = new Date('2026-03-01T00:00:00Z');
      given([purchased, activated])
        .when((state) => endSubscription({ at: late, graceDays, ...shortBy800 }, state))
        .then([
          { type: 'SubscriptionLapsed', data: { ...lapsed.data, lapsedAt: late.toISOString() } } as SubscriptionEvent,
        ]);
      expect(stateOf([purchased, activated, lapsed])).toMatchObject({
        status: 'GRACE',
        graceEndsAt: graceEndsAt.toISOString(),
      });
    });

    it('records what the balance lacked at the lapse: the price less the discount minus the balance, never below 0', () => {
      const lapse = (money: { discountPercent: number; balanceMinor: number }) =>
        endSubscription({ at: end, graceDays, ...money }, stateOf([purchased, activated]));
      expect(lapse({ discountPercent: 10, balanceMinor: 300 })).toEqual([
        { type: 'SubscriptionLapsed', data: { ...lapsed.data, missingMinor: 600 } },
      ]);
      // A debt adds to it; a balance that covers the renewal records zero (the next sweep renews it).
      expect(lapse({ discountPercent: 0, balanceMinor: -500 })[0].data).toMatchObject({ missingMinor: 1500 });
      expect(lapse({ discountPercent: 0, balanceMinor: 1200 })[0].data).toMatchObject({ missingMinor: 0 });
    });

    it('expires at once when the window passed before the sweep came (it was down)', () => {
      given([purchased, activated])
        .when((state) => endSubscription({ at: graceEndsAt, graceDays, ...shortBy800 }, state))
        .then([
          {
            type: 'SubscriptionEnded',
            data: { ...expired.data, endedAt: graceEndsAt.toISOString() },
          } as SubscriptionEvent,
        ]);
    });

    it('keeps the window it lapsed with, whatever the configuration says later', () => {
      given([purchased, activated, lapsed])
        .when((state) =>
          endSubscription({ at: new Date(graceEndsAt.getTime() - 1), graceDays: 1, ...shortBy800 }, state),
        )
        .then([]);
    });

    it("ends EXPIRED at the window's end, not before, and once", () => {
      given([purchased, activated, lapsed])
        .when((state) => endSubscription({ at: inGrace, graceDays, ...shortBy800 }, state))
        .then([]);
      const expiredAfterGrace: SubscriptionEvent = {
        type: 'SubscriptionEnded',
        data: { subscriptionId, userUuid, status: 'EXPIRED', endedAt: graceEndsAt.toISOString() },
      };
      given([purchased, activated, lapsed])
        .when((state) => endSubscription({ at: graceEndsAt, graceDays, ...shortBy800 }, state))
        .then([expiredAfterGrace]);
      given([purchased, activated, lapsed, expiredAfterGrace])
        .when((state) => endSubscription({ at: graceEndsAt, graceDays, ...shortBy800 }, state))
        .then([]);
      expect(stateOf([purchased, activated, lapsed, expiredAfterGrace])).toMatchObject({
        status: 'EXPIRED',
        graceEndsAt: null,
      });
    });

    it('renews by hand or by the sweep with the new period from the payment, and is ACTIVE again', () => {
      for (const automatic of [false, true]) {
        const renewed: SubscriptionEvent = {
          type: 'SubscriptionRenewed',
          data: {
            subscriptionId,
            userUuid,
            paymentId: 9,
            priceMinor: 1000,
            listPriceMinor: 1000,
            discountPercent: 0,
            previousEndDate: end.toISOString(),
            endDate: '2026-04-01T12:00:00.000Z',
            renewedAt: inGrace.toISOString(),
            automatic,
          },
        };
        given([purchased, activated, lapsed])
          .when((state) => renewSubscription(renew(inGrace, { automatic }), state))
          .then([renewed]);
        expect(stateOf([purchased, activated, lapsed, renewed])).toMatchObject({
          status: 'ACTIVE',
          endDate: '2026-04-01T12:00:00.000Z',
          graceEndsAt: null,
          renewalRetryAt: null,
        });
      }
    });

    it('refuses to renew once the window closed and it ended', () => {
      given([
        purchased,
        activated,
        lapsed,
        { ...expired, data: { ...expired.data, endedAt: graceEndsAt.toISOString() } },
      ])
        .when((state) => renewSubscription(renew(graceEndsAt), state))
        .thenRejects('error.subscription.ended');
    });

    it('keeps recording short balances in the window, and the sweep keeps charging it', () => {
      const nextAttemptAt = new Date('2026-03-02T12:00:00Z');
      given([purchased, activated, lapsed])
        .when((state) => recordRenewalFailure({ missingMinor: 400, nextAttemptAt, at: inGrace }, state))
        .then([
          {
            type: 'SubscriptionRenewalFailed',
            data: {
              subscriptionId,
              userUuid,
              missingMinor: 400,
              attemptedAt: inGrace.toISOString(),
              nextAttemptAt: nextAttemptAt.toISOString(),
            },
          },
        ]);
      expect(nextPaymentDateOf(stateOf([purchased, activated, lapsed]))).not.toBeNull();
    });

    it('refuses cancelling or switching off the renewal in GRACE: it is renewed or left to end', () => {
      given([purchased, activated, lapsed])
        .when((state) => cancelSubscription({ at: inGrace }, state))
        .thenRejects('error.subscription.in.grace');
      given([purchased, activated, lapsed])
        .when((state) => deactivateRecurrence({ at: inGrace }, state))
        .thenRejects('error.subscription.in.grace');
    });

    it('refuses changing the login or the password of the paused account: renewing comes first', () => {
      given([purchased, activated, lapsed])
        .when((state) => changeLogin({ login: 'dana.home' }, state))
        .thenRejects('error.subscription.in.grace');
      given([purchased, activated, lapsed])
        .when((state) => changePassword({ password: 'new-pass-1234', at: inGrace }, state))
        .thenRejects('error.subscription.in.grace');
    });

    it('allows both again once renewed out of GRACE', () => {
      const renewedInGrace: SubscriptionEvent = {
        type: 'SubscriptionRenewed',
        data: {
          subscriptionId,
          userUuid,
          paymentId: 9,
          priceMinor: 1000,
          listPriceMinor: 1000,
          discountPercent: 0,
          previousEndDate: end.toISOString(),
          endDate: '2026-04-01T12:00:00.000Z',
          renewedAt: inGrace.toISOString(),
          automatic: false,
        },
      };
      given([purchased, activated, lapsed, renewedInGrace])
        .when((state) => changeLogin({ login: 'dana.home' }, state))
        .then([
          {
            type: 'SubscriptionLoginChanged',
            data: { subscriptionId, userUuid, previousLogin: 'dana.tv', login: 'dana.home' },
          },
        ]);
    });
  });

  describe('ChangeLogin', () => {
    it('records the old and the new login', () => {
      given([purchased, activated])
        .when((state) => changeLogin({ login: 'dana.home' }, state))
        .then([
          {
            type: 'SubscriptionLoginChanged',
            data: { subscriptionId, userUuid, previousLogin: 'dana.tv', login: 'dana.home' },
          },
        ]);
    });

    it('records nothing for the same login, and refuses an invalid one', () => {
      given([purchased])
        .when((state) => changeLogin({ login: 'dana.tv' }, state))
        .then([]);
      given([purchased])
        .when((state) => changeLogin({ login: 'no' }, state))
        .thenRejects('error.validation.subscription.login', { field: 'login' });
    });

    it("refuses a trial's login, and an ended subscription's", () => {
      given([trialPurchased, trialActivated])
        .when((state) => changeLogin({ login: 'dana.home' }, state))
        .thenRejects('error.trial.login.cannot.be.changed');
      given([purchased, activated, expired])
        .when((state) => changeLogin({ login: 'dana.home' }, state))
        .thenRejects('error.subscription.ended');
    });
  });

  describe('ChangePassword', () => {
    const at = new Date('2026-02-02T00:00:00Z');
    const changed: SubscriptionEvent = {
      type: 'SubscriptionPasswordChanged',
      data: { subscriptionId, userUuid, changedAt: at.toISOString() },
    };

    it('records that it changed, without the password, on a subscription or a trial', () => {
      given([purchased, activated])
        .when((state) => changePassword({ password: 'new secret!', at }, state))
        .then([changed]);
      given([trialPurchased])
        .when((state) => changePassword({ password: 'new secret!', at }, state))
        .then([changed]);
    });

    it('refuses a password against the rule, and an ended subscription', () => {
      given([purchased])
        .when((state) => changePassword({ password: 'é123', at }, state))
        .thenRejects('error.validation.subscription.password', { field: 'password' });
      given([purchased, activated, expired])
        .when((state) => changePassword({ password: 'fine', at }, state))
        .thenRejects('error.subscription.ended');
    });
  });

  describe('FailProvisioning', () => {
    const at = new Date('2026-01-31T11:00:00Z');

    it('ends a PENDING subscription CANCELED with the refund payment', () => {
      given([purchased])
        .when((state) => failProvisioning({ reason: 'refused', refundPaymentId: 12, at }, state))
        .then([
          {
            type: 'SubscriptionProvisioningFailed',
            data: { subscriptionId, userUuid, reason: 'refused', refundPaymentId: 12, failedAt: at.toISOString() },
          },
        ]);
      const failedEvent = failProvisioning({ reason: 'refused', refundPaymentId: 12, at }, stateOf([purchased]))[0];
      expect(stateOf([purchased, failedEvent]).status).toBe('CANCELED');
    });

    it('fails a trial with no refund', () => {
      expect(
        failProvisioning({ reason: 'refused', refundPaymentId: null, at }, stateOf([trialPurchased])),
      ).toHaveLength(1);
    });

    it('does nothing once the subscription started or ended', () => {
      given([purchased, activated])
        .when((state) => failProvisioning({ reason: 'late', refundPaymentId: 12, at }, state))
        .then([]);
    });
  });

  describe('nextPaymentDate', () => {
    it('is three days before the end for a recurrent ACTIVE subscription, none otherwise', () => {
      expect(nextPaymentDateOf(stateOf([purchased, activated]))).toBe('2026-02-25T10:05:00.000Z');
      expect(nextPaymentDateOf(stateOf([purchased]))).toBeNull();
      expect(nextPaymentDateOf(stateOf([trialPurchased, trialActivated]))).toBeNull();
      expect(nextPaymentDateOf(stateOf([purchased, activated, expired]))).toBeNull();
    });

    it('is the next attempt after a failed renewal, and the lead before the new end after a renewal', () => {
      const failed: SubscriptionEvent = {
        type: 'SubscriptionRenewalFailed',
        data: {
          subscriptionId,
          userUuid,
          missingMinor: 250,
          attemptedAt: '2026-02-25T10:05:00.000Z',
          nextAttemptAt: '2026-02-26T10:05:00.000Z',
        },
      };
      const renewed: SubscriptionEvent = {
        type: 'SubscriptionRenewed',
        data: {
          subscriptionId,
          userUuid,
          paymentId: 9,
          priceMinor: 1000,
          listPriceMinor: 1000,
          discountPercent: 0,
          previousEndDate: '2026-02-28T10:05:00.000Z',
          endDate: '2026-03-28T10:05:00.000Z',
          renewedAt: '2026-02-26T10:05:00.000Z',
          automatic: true,
        },
      };
      expect(nextPaymentDateOf(stateOf([purchased, activated, failed]))).toBe('2026-02-26T10:05:00.000Z');
      expect(nextPaymentDateOf(stateOf([purchased, activated, failed, renewed]))).toBe('2026-03-25T10:05:00.000Z');
    });
  });

  describe('calendar months', () => {
    it('keep the day and time, clamping to the last day of a shorter month, in UTC', () => {
      const cases: Array<[string, number, string]> = [
        ['2026-01-15T08:00:00.000Z', 1, '2026-02-15T08:00:00.000Z'],
        ['2026-01-31T23:30:00.000Z', 1, '2026-02-28T23:30:00.000Z'],
        ['2028-01-31T00:00:00.000Z', 1, '2028-02-29T00:00:00.000Z'],
        ['2026-08-31T12:00:00.000Z', 1, '2026-09-30T12:00:00.000Z'],
        ['2026-11-30T12:00:00.000Z', 3, '2027-02-28T12:00:00.000Z'],
        ['2026-03-31T12:00:00.000Z', 12, '2027-03-31T12:00:00.000Z'],
        ['2026-12-31T12:00:00.000Z', 2, '2027-02-28T12:00:00.000Z'],
      ];
      for (const [from, months, to] of cases)
        expect([from, months, addCalendarMonths(new Date(from), months).toISOString()]).toEqual([from, months, to]);
    });
  });
});

// The renewal is refused once the subscription is paid a full period ahead (end − now ≥ the duration). These pin the
// exact instant: a mutant that refused only beyond one period (`>` for `≥`) survived the cases above (issue 29).
describe('subscription decider: renewal at the exact edge of one period ahead', () => {
  // Renewed on 1 February: the end moves from 28 February to 28 March, 10:05 UTC.
  const renewedOnce: SubscriptionEvent = {
    type: 'SubscriptionRenewed',
    data: {
      subscriptionId,
      userUuid,
      paymentId: 8,
      priceMinor: 1000,
      listPriceMinor: 1000,
      discountPercent: 0,
      previousEndDate: '2026-02-28T10:05:00.000Z',
      endDate: '2026-03-28T10:05:00.000Z',
      renewedAt: '2026-02-01T00:00:00.000Z',
      automatic: false,
    },
  };
  const history = [purchased, activated, renewedOnce];
  // 28 February 10:05 plus one calendar month is the end itself.
  const exactlyOnePeriodBefore = new Date('2026-02-28T10:05:00.000Z');
  const msLater = (at: Date, ms: number) => new Date(at.getTime() + ms);
  const dayMs = 24 * 60 * 60 * 1000;

  it('refuses when the end is exactly one period ahead', () =>
    given(history)
      .when((state) => renewSubscription(renew(exactlyOnePeriodBefore), state))
      .thenRejects('error.subscription.already.renewed'));

  it('refuses a millisecond and a day earlier, when the end is more than one period ahead', () => {
    for (const at of [msLater(exactlyOnePeriodBefore, -1), msLater(exactlyOnePeriodBefore, -dayMs)])
      given(history)
        .when((state) => renewSubscription(renew(at), state))
        .thenRejects('error.subscription.already.renewed');
  });

  it('renews a millisecond later, from the end, when the end is just under one period ahead', () => {
    const at = msLater(exactlyOnePeriodBefore, 1);
    given(history)
      .when((state) => renewSubscription(renew(at), state))
      .then([
        {
          type: 'SubscriptionRenewed',
          data: {
            subscriptionId,
            userUuid,
            paymentId: 9,
            priceMinor: 1000,
            listPriceMinor: 1000,
            discountPercent: 0,
            previousEndDate: '2026-03-28T10:05:00.000Z',
            endDate: '2026-04-28T10:05:00.000Z',
            renewedAt: '2026-02-28T10:05:00.001Z',
            automatic: false,
          },
        },
      ]);
  });

  it('renews a day later, from the end, and the automatic renewal is held to the same edge', () => {
    const dayLater = msLater(exactlyOnePeriodBefore, dayMs);
    const [event] = renewSubscription(renew(dayLater), stateOf(history));
    expect(event.data).toMatchObject({
      previousEndDate: '2026-03-28T10:05:00.000Z',
      endDate: '2026-04-28T10:05:00.000Z',
    });
    given(history)
      .when((state) => renewSubscription(renew(exactlyOnePeriodBefore, { automatic: true }), state))
      .thenRejects('error.subscription.already.renewed');
    expect(renewSubscription(renew(dayLater, { automatic: true }), stateOf(history))).toHaveLength(1);
  });
});

describe('renewal funding (docs/adr/0085-saved-cards.md)', () => {
  const at = new Date('2026-02-10T08:00:00Z');
  const changed = (
    funding: 'BALANCE' | 'BALANCE_THEN_CARD' | 'CARD',
    previousFunding: 'BALANCE' | 'BALANCE_THEN_CARD' | 'CARD',
    reason: 'CHOSEN' | 'CARD_REMOVED' = 'CHOSEN',
  ): SubscriptionEvent => ({
    type: 'SubscriptionRenewalFundingChanged',
    data: { subscriptionId, userUuid, funding, previousFunding, reason, changedAt: at.toISOString() },
  });

  it('pays from the balance until its owner chooses otherwise', () => {
    expect(stateOf([purchased, activated]).renewalFunding).toBe('BALANCE');
  });

  it('records the choice of a recurrent subscription, before or after it started, cancelled or not', () => {
    given([purchased, activated])
      .when((state) => chooseRenewalFunding({ funding: 'BALANCE_THEN_CARD', hasSavedCard: true, at }, state))
      .then([changed('BALANCE_THEN_CARD', 'BALANCE')]);
    given([purchased])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .then([changed('CARD', 'BALANCE')]);
    given([purchased, activated, cancelled])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .then([changed('CARD', 'BALANCE')]);
    expect(stateOf([purchased, activated, changed('CARD', 'BALANCE')]).renewalFunding).toBe('CARD');
  });

  it('goes back to the balance without a saved card, and records nothing for the same choice again', () => {
    given([purchased, activated, changed('CARD', 'BALANCE')])
      .when((state) => chooseRenewalFunding({ funding: 'BALANCE', hasSavedCard: false, at }, state))
      .then([changed('BALANCE', 'CARD')]);
    given([purchased, activated, changed('CARD', 'BALANCE')])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .then([]);
  });

  it('refuses a card choice without a saved card', () => {
    for (const funding of ['CARD', 'BALANCE_THEN_CARD'] as const)
      given([purchased, activated])
        .when((state) => chooseRenewalFunding({ funding, hasSavedCard: false, at }, state))
        .thenRejects('error.card.not.saved');
  });

  it('refuses a subscription that does not renew by itself, one that ended, and a missing one', () => {
    given([trialPurchased, trialActivated])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .thenRejects('error.subscription.funding.not.recurrent');
    given([purchased, activated, deactivated])
      .when((state) => chooseRenewalFunding({ funding: 'BALANCE', hasSavedCard: true, at }, state))
      .thenRejects('error.subscription.funding.not.recurrent');
    given([purchased, activated, expired])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .thenRejects('error.subscription.ended');
    given([])
      .when((state) => chooseRenewalFunding({ funding: 'CARD', hasSavedCard: true, at }, state))
      .thenRejects('error.subscription.not.found');
  });

  it('falls back to the balance when the saved card is removed, for a running subscription that used it', () => {
    given([purchased, activated, changed('BALANCE_THEN_CARD', 'BALANCE')])
      .when((state) => fallBackToBalanceFunding({ at }, state))
      .then([changed('BALANCE', 'BALANCE_THEN_CARD', 'CARD_REMOVED')]);
    given([purchased, activated])
      .when((state) => fallBackToBalanceFunding({ at }, state))
      .then([]);
    given([purchased, activated, changed('CARD', 'BALANCE'), expired])
      .when((state) => fallBackToBalanceFunding({ at }, state))
      .then([]);
    given([])
      .when((state) => fallBackToBalanceFunding({ at }, state))
      .then([]);
  });
});

describe('what the balance lacks for a renewal', () => {
  it('is the price as bought less the discount, minus the balance; a debt adds to it', () => {
    // $20.00 at 10 % off is $18.00.
    expect(renewalMissingMinor(2000, 10, 500)).toBe(1300);
    expect(renewalMissingMinor(2000, 10, -300)).toBe(2100);
  });

  it('is zero or less when the balance covers the renewal', () => {
    expect(renewalMissingMinor(2000, 10, 1800)).toBe(0);
    expect(renewalMissingMinor(2000, 0, 2500)).toBe(-500);
  });
});
