import { DomainError, fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { subscriptionEvolution } from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import {
  decideDepositPurchase,
  decidePurchase,
  decideRenewal,
  failureCodeOf,
  quoteRenewal,
  refuseAboveQuote,
} from './subscription-purchases';
import { purchasedEvent } from './subscription-events.fixtures';

const subscriptionId = '55555555-5555-4555-8555-555555555555';
const userUuid = '11111111-1111-4111-8111-111111111111';
const planId = '44444444-4444-4444-8444-444444444444';
const boughtAt = new Date('2026-01-31T10:00:00Z');
const plan = {
  planId,
  planName: 'Gold',
  durationInMonths: 1,
  priceMinor: 2999,
  currency: 'USD' as const,
  isRecurrent: true,
};
const purchase = {
  subscriptionId,
  userUuid,
  userEmail: 'dana@example.com',
  plan,
  discountPercent: 10,
  paymentId: 7,
  login: 'dana.tv',
  password: 'secret-1',
  quotedPriceMinor: null,
  at: boughtAt,
};
const purchased = purchasedEvent({ priceMinor: 2699, listPriceMinor: 2999, discountPercent: 10 });
const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    subscriptionId,
    userUuid,
    startDate: boughtAt.toISOString(),
    endDate: '2026-02-28T10:00:00.000Z',
    activatedAt: boughtAt.toISOString(),
  },
};
const renewalDay = new Date('2026-02-25T10:00:00Z');
const renewal = { paymentId: 9, discountPercent: 10, at: renewalDay, automatic: false, quotedPriceMinor: null };

const { given } = deciderSpec(subscriptionEvolution);
const stateOf = (history: SubscriptionEvent[]) => fold(subscriptionEvolution, history);

describe('subscription purchases', () => {
  describe('the purchase decision', () => {
    it('given a package for sale, when bought, then the subscription at the discounted price and its charge', () => {
      const decision = decidePurchase(purchase, stateOf([]));
      expect(decision.subscription).toEqual([purchased]);
      expect(decision.charge).toEqual({ amountMinor: 2699, discountPercent: 10 });
      expect(decision.purchased.priceMinor).toBe(2699);
    });

    it('given a purchase quoted earlier, when the price is the quote, then it is bought', () => {
      given([])
        .when((state) => decidePurchase({ ...purchase, quotedPriceMinor: 2699 }, state).subscription)
        .then([purchased]);
    });

    it('given a purchase quoted earlier, when the price is below the quote, then it is bought at the price', () => {
      expect(decidePurchase({ ...purchase, quotedPriceMinor: 3000 }, stateOf([])).charge.amountMinor).toBe(2699);
    });

    it('given a purchase quoted earlier, when the price is one cent above it, then no longer available', () => {
      given([])
        .when((state) => decidePurchase({ ...purchase, quotedPriceMinor: 2698 }, state).subscription)
        .thenRejects('error.plan.no.longer.available');
    });

    it("given the subscription's own rules, when the login is malformed, then the decider's refusal", () => {
      given([])
        .when((state) => decidePurchase({ ...purchase, login: 'Dana' }, state).subscription)
        .thenRejects('error.validation.subscription.login', { field: 'login' });
    });
  });

  describe('the renewal decision and its quote', () => {
    it('given an ACTIVE subscription, when renewed, then the renewal and the charge at the price as bought less now', () => {
      const decision = decideRenewal({ ...renewal, discountPercent: 20 }, stateOf([purchased, activated]));
      expect(decision.subscription).toHaveLength(1);
      expect(decision.renewed).toMatchObject({ priceMinor: 2399, listPriceMinor: 2999, discountPercent: 20 });
      expect(decision.charge).toEqual({ amountMinor: 2399, discountPercent: 20 });
    });

    it('given a quote, when the renewal costs exactly the quote, then it is renewed; one cent more is refused', () => {
      expect(
        decideRenewal({ ...renewal, quotedPriceMinor: 2699 }, stateOf([purchased, activated])).charge.amountMinor,
      ).toBe(2699);
      given([purchased, activated])
        .when((state) => decideRenewal({ ...renewal, quotedPriceMinor: 2698 }, state).subscription)
        .thenRejects('error.plan.no.longer.available');
    });

    it('given an ACTIVE subscription, when quoted, then what renewing now costs and its package', () => {
      expect(quoteRenewal({ discountPercent: 10, at: renewalDay }, stateOf([purchased, activated]))).toEqual({
        priceMinor: 2699,
        listPriceMinor: 2999,
        planId,
      });
    });

    it("given a PENDING subscription, when quoted, then the renewal's own refusal", () => {
      expect(() => quoteRenewal({ discountPercent: 0, at: renewalDay }, stateOf([purchased]))).toThrow(
        'error.subscription.not.renewable',
      );
    });

    it('given a subscription paid a full period ahead, when quoted, then already renewed', () => {
      expect(() =>
        quoteRenewal({ discountPercent: 0, at: new Date('2026-01-31T10:00:00Z') }, stateOf([purchased, activated])),
      ).toThrow('error.subscription.already.renewed');
    });
  });

  describe('the quote rule', () => {
    it('allows a price equal to the quote or below it, and any price when nothing was quoted', () => {
      expect(() => refuseAboveQuote(1000, 1000)).not.toThrow();
      expect(() => refuseAboveQuote(999, 1000)).not.toThrow();
      expect(() => refuseAboveQuote(1_000_000, null)).not.toThrow();
    });

    it('refuses one cent above the quote', () => {
      expect(() => refuseAboveQuote(1001, 1000)).toThrow(new DomainError('error.plan.no.longer.available'));
    });
  });

  describe('the deposit-buy decision', () => {
    it('given a purchase the rules allow, when decided, then DONE with its events', () => {
      expect(decideDepositPurchase(() => ({ subscription: [purchased] }))).toEqual({
        status: 'DONE',
        events: { subscription: [purchased] },
      });
    });

    it("given a rule's refusal, when decided, then FAILED with its code and no events", () => {
      expect(decideDepositPurchase(() => decidePurchase({ ...purchase, quotedPriceMinor: 2698 }, stateOf([])))).toEqual(
        { status: 'FAILED', errorCode: 'error.plan.no.longer.available' },
      );
      expect(
        decideDepositPurchase(() => {
          throw new DomainError('error.insufficient.balance');
        }),
      ).toEqual({ status: 'FAILED', errorCode: 'error.insufficient.balance' });
    });

    it('given a refusal known before deciding, when decided, then FAILED without asking the rules', () => {
      let asked = false;
      const decide = () => {
        asked = true;
        return {};
      };
      expect(decideDepositPurchase(decide, 'error.login.already.exists')).toEqual({
        status: 'FAILED',
        errorCode: 'error.login.already.exists',
      });
      expect(asked).toBe(false);
    });

    it('given a failure that is not a rule (a bug or the database), when decided, then it is thrown', () => {
      expect(() =>
        decideDepositPurchase(() => {
          throw new Error('connection lost');
        }),
      ).toThrow('connection lost');
    });
  });

  describe('the refusal-to-failure rule', () => {
    it('reads a package withdrawn or deleted meanwhile as no longer available', () => {
      expect(failureCodeOf(new DomainError('error.payment.plan.not.active'))).toBe('error.plan.no.longer.available');
      expect(failureCodeOf(new DomainError('error.payment.plan.not.found'))).toBe('error.plan.no.longer.available');
      expect(decideDepositPurchase(() => ({}), 'error.payment.plan.not.active')).toEqual({
        status: 'FAILED',
        errorCode: 'error.plan.no.longer.available',
      });
    });

    it('keeps every other refusal as it is', () => {
      expect(failureCodeOf(new DomainError('error.insufficient.balance'))).toBe('error.insufficient.balance');
      expect(failureCodeOf(new DomainError('error.subscription.ended'))).toBe('error.subscription.ended');
    });
  });
});
