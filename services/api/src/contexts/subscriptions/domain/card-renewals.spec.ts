import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  CARD_RENEWAL_ABANDON_AFTER_MS,
  cardRenewalAmountMinor,
  concludeCardRenewal,
  settleCardRenewal,
  startCardRenewal,
} from './card-renewals';
import { subscriptionEvolution } from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import { purchasedEvent } from './subscription-events.fixtures';

const subscriptionId = '55555555-5555-4555-8555-555555555555';
const userUuid = '11111111-1111-4111-8111-111111111111';
const endDate = '2026-02-28T10:05:00.000Z';
const at = new Date('2026-02-25T10:05:00Z');

const purchased = purchasedEvent();
const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    subscriptionId,
    userUuid,
    startDate: '2026-01-31T10:05:00.000Z',
    endDate,
    activatedAt: '2026-01-31T10:05:00.000Z',
  },
};
const cancelled: SubscriptionEvent = {
  type: 'SubscriptionCancelled',
  data: { subscriptionId, userUuid, cancelledAt: '2026-02-01T00:00:00.000Z' },
};
const running = [purchased, activated];

function started(attemptId: string, paymentMethodId = 'pm_1', startedAt = at): SubscriptionEvent {
  return {
    type: 'SubscriptionCardRenewalStarted',
    data: {
      subscriptionId,
      userUuid,
      attemptId,
      periodEndDate: endDate,
      amountMinor: 1000,
      paymentMethodId,
      startedAt: startedAt.toISOString(),
    },
  };
}
function pending(attemptId: string): SubscriptionEvent {
  return {
    type: 'SubscriptionCardRenewalPending',
    data: { subscriptionId, userUuid, attemptId, paymentIntentId: 'pi_1', pendingAt: at.toISOString() },
  };
}
function failed(
  attemptId: string,
  outcome: 'DECLINED' | 'REQUIRES_ACTION' | 'ABANDONED',
  failedAt = at,
  paymentIntentId: string | null = 'pi_1',
): SubscriptionEvent {
  const code =
    outcome === 'DECLINED' ? 'card_declined' : outcome === 'REQUIRES_ACTION' ? 'authentication_required' : 'abandoned';
  return {
    type: 'SubscriptionCardRenewalFailed',
    data: {
      subscriptionId,
      userUuid,
      attemptId,
      outcome,
      code,
      declineCode: outcome === 'DECLINED' ? 'generic_decline' : null,
      paymentIntentId,
      failedAt: failedAt.toISOString(),
    },
  };
}
function settled(attemptId: string): SubscriptionEvent {
  return {
    type: 'SubscriptionCardRenewalSettled',
    data: {
      subscriptionId,
      userUuid,
      attemptId,
      paymentIntentId: 'pi_1',
      depositPaymentId: 42,
      settledAt: at.toISOString(),
    },
  };
}

const { given } = deciderSpec(subscriptionEvolution);
const start = (attemptId: string, paymentMethodId = 'pm_1', when = at) => ({
  attemptId,
  amountMinor: 1000,
  paymentMethodId,
  at: when,
});

describe('card renewal attempts (ADR 0086)', () => {
  describe('the amount asked of the card', () => {
    it('is the whole price for CARD, what the balance lacks for BALANCE_THEN_CARD, nothing for BALANCE', () => {
      expect(cardRenewalAmountMinor('CARD', 1000, 5000)).toBe(1000);
      expect(cardRenewalAmountMinor('BALANCE_THEN_CARD', 1000, 300)).toBe(700);
      expect(cardRenewalAmountMinor('BALANCE_THEN_CARD', 1000, -200)).toBe(1200);
      expect(cardRenewalAmountMinor('BALANCE_THEN_CARD', 1000, 1000)).toBe(0);
      expect(cardRenewalAmountMinor('BALANCE', 1000, 0)).toBe(0);
    });
  });

  describe('starting', () => {
    it('given a due renewal, when the sweep starts one, then the attempt is recorded for this period and card', () => {
      const decision = startCardRenewal(start('a1'), fold(subscriptionEvolution, running));
      expect(decision.events).toEqual([started('a1')]);
      expect(decision.charge).toMatchObject({ attemptId: 'a1', amountMinor: 1000, status: 'OPEN' });
      expect(decision.waiting).toBe(false);
    });

    it('given an open attempt, when a second worker starts one, then it sends the same attempt again', () => {
      const decision = startCardRenewal(start('a2'), fold(subscriptionEvolution, [...running, started('a1')]));
      expect(decision.events).toEqual([]);
      expect(decision.charge?.attemptId).toBe('a1');
    });

    it('given an attempt pending at the provider, then nothing is sent and the subscription waits', () => {
      const decision = startCardRenewal(
        start('a2'),
        fold(subscriptionEvolution, [...running, started('a1'), pending('a1')]),
      );
      expect(decision).toEqual({ events: [], charge: null, waiting: true });
    });

    it('given a card that failed this period, then it is not charged again, but a newly saved card is tried once', () => {
      const history = [...running, started('a1'), failed('a1', 'DECLINED')];
      expect(startCardRenewal(start('a2'), fold(subscriptionEvolution, history))).toEqual({
        events: [],
        charge: null,
        waiting: false,
      });
      const newCard = startCardRenewal(start('a2', 'pm_2'), fold(subscriptionEvolution, history));
      expect(newCard.events).toEqual([started('a2', 'pm_2')]);
      const again = startCardRenewal(
        start('a3', 'pm_2'),
        fold(subscriptionEvolution, [...history, started('a2', 'pm_2'), failed('a2', 'REQUIRES_ACTION')]),
      );
      expect(again.charge).toBeNull();
    });

    it('given an attempt open longer than the provider keeps its keys, then it is abandoned and never sent again', () => {
      const later = new Date(at.getTime() + CARD_RENEWAL_ABANDON_AFTER_MS + 1);
      const decision = startCardRenewal(
        start('a2', 'pm_1', later),
        fold(subscriptionEvolution, [...running, started('a1')]),
      );
      expect(decision.events).toEqual([failed('a1', 'ABANDONED', later, null)]);
      expect(decision.charge).toBeNull();
      // Still within the window: sent again under its own key.
      const inTime = new Date(at.getTime() + CARD_RENEWAL_ABANDON_AFTER_MS);
      expect(
        startCardRenewal(start('a2', 'pm_1', inTime), fold(subscriptionEvolution, [...running, started('a1')])).charge
          ?.attemptId,
      ).toBe('a1');
    });

    it('given a renewal no longer due (another worker renewed it), then no attempt starts', () => {
      given(running)
        .when((state) => startCardRenewal(start('a1', 'pm_1', new Date('2026-02-25T10:04:59Z')), state).events)
        .thenRejects('error.subscription.already.renewed');
    });

    it('given a subscription that does not renew by itself, then no attempt starts', () => {
      given([...running, cancelled])
        .when((state) => startCardRenewal(start('a1'), state).events)
        .thenRejects('error.subscription.not.renewable');
    });
  });

  describe('concluding', () => {
    it('given an open attempt, when the provider declines or wants the holder, then it fails once', () => {
      const answer = {
        outcome: 'declined' as const,
        paymentIntentId: 'pi_1',
        code: 'card_declined',
        declineCode: 'generic_decline',
      };
      given([...running, started('a1')])
        .when((state) => concludeCardRenewal({ attemptId: 'a1', answer, at }, state))
        .then([failed('a1', 'DECLINED')]);
      given([...running, started('a1'), failed('a1', 'DECLINED')])
        .when((state) => concludeCardRenewal({ attemptId: 'a1', answer, at }, state))
        .then([]);
      given([...running, started('a1'), pending('a1')])
        .when((state) =>
          concludeCardRenewal(
            {
              attemptId: 'a1',
              answer: {
                outcome: 'requires_action',
                paymentIntentId: null,
                code: 'authentication_required',
              },
              at,
            },
            state,
          ),
        )
        .then([failed('a1', 'REQUIRES_ACTION')]);
    });

    it('given an open attempt, when the provider is processing, then it is pending once', () => {
      const answer = { outcome: 'pending' as const, paymentIntentId: 'pi_1' };
      given([...running, started('a1')])
        .when((state) => concludeCardRenewal({ attemptId: 'a1', answer, at }, state))
        .then([pending('a1')]);
      given([...running, started('a1'), pending('a1')])
        .when((state) => concludeCardRenewal({ attemptId: 'a1', answer, at }, state))
        .then([]);
    });

    it('given a settled attempt, when a failure arrives late, then nothing is recorded', () => {
      given([...running, started('a1'), settled('a1')])
        .when((state) =>
          concludeCardRenewal(
            {
              attemptId: 'a1',
              answer: { outcome: 'declined', paymentIntentId: 'pi_1', code: 'card_declined', declineCode: null },
              at,
            },
            state,
          ),
        )
        .then([]);
    });

    it('settles once, also an attempt abandoned while the provider still processed it; unknown attempts record nothing', () => {
      const command = { attemptId: 'a1', paymentIntentId: 'pi_1', depositPaymentId: 42, at };
      given([...running, started('a1'), pending('a1')])
        .when((state) => settleCardRenewal(command, state))
        .then([settled('a1')]);
      given([...running, started('a1'), settled('a1')])
        .when((state) => settleCardRenewal(command, state))
        .then([]);
      given([...running, started('a1'), failed('a1', 'ABANDONED')])
        .when((state) => settleCardRenewal(command, state))
        .then([settled('a1')]);
      given(running)
        .when((state) => settleCardRenewal(command, state))
        .then([]);
    });
  });
});
