import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  extendSubscription,
  nextPaymentDateOf,
  renewSubscription,
  subscriptionEvolution,
} from './subscription.decider';
import type { SubscriptionEvent } from './subscription.events';
import type { ExistingSubscription } from './subscription.state';
import { purchasedEvent } from './subscription-events.fixtures';

const subscriptionId = '55555555-5555-4555-8555-555555555555';
const userUuid = '11111111-1111-4111-8111-111111111111';
const staffId = '22222222-2222-4222-8222-222222222222';
const purchased = purchasedEvent();
const activated: SubscriptionEvent = {
  type: 'SubscriptionActivated',
  data: {
    subscriptionId,
    userUuid,
    startDate: '2026-01-31T10:05:00.000Z',
    endDate: '2026-02-28T10:05:00.000Z',
    activatedAt: '2026-01-31T10:05:00.000Z',
  },
};
const lapsed: SubscriptionEvent = {
  type: 'SubscriptionLapsed',
  data: {
    subscriptionId,
    userUuid,
    endDate: '2026-02-28T10:05:00.000Z',
    graceEndsAt: '2026-03-03T10:05:00.000Z',
    lapsedAt: '2026-02-28T10:05:00.000Z',
    missingMinor: 800,
  },
};
const cancelled: SubscriptionEvent = {
  type: 'SubscriptionCancelled',
  data: { subscriptionId, userUuid, cancelledAt: '2026-02-01T00:00:00.000Z' },
};
const ended: SubscriptionEvent = {
  type: 'SubscriptionEnded',
  data: { subscriptionId, userUuid, status: 'EXPIRED', endedAt: '2026-03-03T10:05:00.000Z' },
};

const at = new Date('2026-02-10T09:00:00Z');
const byStaff = {
  days: 2,
  reason: 'The service was down on Sunday',
  source: 'STAFF' as const,
  actorId: staffId,
  batchId: null,
  voucherBatchId: null,
  idempotencyKey: 'staff-1',
  at,
};
const extended = (overrides: Partial<Extract<SubscriptionEvent, { type: 'SubscriptionExtended' }>['data']> = {}) =>
  ({
    type: 'SubscriptionExtended',
    data: {
      subscriptionId,
      userUuid,
      days: 2,
      reason: 'The service was down on Sunday',
      source: 'STAFF',
      actorId: staffId,
      batchId: null,
      voucherBatchId: null,
      idempotencyKey: 'staff-1',
      previousEndDate: '2026-02-28T10:05:00.000Z',
      endDate: '2026-03-02T10:05:00.000Z',
      extendedAt: at.toISOString(),
      ...overrides,
    },
  }) as SubscriptionEvent;

const { given } = deciderSpec(subscriptionEvolution);
const stateOf = (history: SubscriptionEvent[]) => fold(subscriptionEvolution, history) as ExistingSubscription;

describe('extending a subscription (ADR 0089)', () => {
  it('adds the days to the end of an ACTIVE one, and the automatic renewal moves with it', () => {
    given([purchased, activated])
      .when((state) => extendSubscription(byStaff, state))
      .then([extended()]);
    const state = stateOf([purchased, activated, extended()]);
    expect(state).toMatchObject({ status: 'ACTIVE', endDate: '2026-03-02T10:05:00.000Z' });
    expect(nextPaymentDateOf(state)).toBe('2026-02-27T10:05:00.000Z');
  });

  it('gives one in GRACE its days from now: ACTIVE again, the window closed', () => {
    const inGrace = new Date('2026-03-01T12:00:00Z');
    given([purchased, activated, lapsed])
      .when((state) => extendSubscription({ ...byStaff, at: inGrace }, state))
      .then([extended({ endDate: '2026-03-03T12:00:00.000Z', extendedAt: inGrace.toISOString() })]);
    expect(stateOf([purchased, activated, lapsed, extended({ endDate: '2026-03-03T12:00:00.000Z' })])).toMatchObject({
      status: 'ACTIVE',
      graceEndsAt: null,
      renewalRetryAt: null,
    });
  });

  it('extends a cancelled one, which still ends (cancelled) at its new end', () => {
    given([purchased, activated, cancelled])
      .when((state) => extendSubscription(byStaff, state))
      .then([extended()]);
    expect(stateOf([purchased, activated, cancelled, extended()]).cancelAtPeriodEnd).toBe(true);
  });

  it('refuses a PENDING one (no period yet) and one that ended', () => {
    given([purchased])
      .when((state) => extendSubscription(byStaff, state))
      .thenRejects('error.subscription.not.extendable');
    given([purchased, activated, lapsed, ended])
      .when((state) => extendSubscription(byStaff, state))
      .thenRejects('error.subscription.ended');
    given([])
      .when((state) => extendSubscription(byStaff, state))
      .thenRejects('error.subscription.not.found');
  });

  it('adds nothing for a key it already applied: a resumed batch or a retried redemption gives the days once', () => {
    given([purchased, activated, extended()])
      .when((state) => extendSubscription(byStaff, state))
      .then([]);
    given([purchased, activated, extended()])
      .when((state) => extendSubscription({ ...byStaff, idempotencyKey: 'staff-2' }, state))
      .then([
        extended({
          idempotencyKey: 'staff-2',
          previousEndDate: '2026-03-02T10:05:00.000Z',
          endDate: '2026-03-04T10:05:00.000Z',
        }),
      ]);
  });

  it('takes 1 to 366 whole days and a reason that says something', () => {
    for (const days of [0, -1, 367, 1.5]) {
      expect(() => extendSubscription({ ...byStaff, days }, stateOf([purchased, activated]))).toThrow(/days/);
    }
    expect(() => extendSubscription({ ...byStaff, reason: '  ' }, stateOf([purchased, activated]))).toThrow(/why/);
    given([purchased, activated])
      .when((state) => extendSubscription({ ...byStaff, days: 366, reason: '  A year  ' }, state))
      .then([extended({ days: 366, reason: 'A year', endDate: '2027-03-01T10:05:00.000Z' })]);
  });

  it('names the bulk batch or the voucher batch exactly when the source says so', () => {
    const state = stateOf([purchased, activated]);
    expect(() => extendSubscription({ ...byStaff, source: 'BULK' }, state)).toThrow(/bulk/);
    expect(() => extendSubscription({ ...byStaff, voucherBatchId: 'b-1' }, state)).toThrow(/voucher/);
    given([purchased, activated])
      .when((state) =>
        extendSubscription({ ...byStaff, source: 'VOUCHER', voucherBatchId: 'b-1', reason: 'Summer' }, state),
      )
      .then([extended({ source: 'VOUCHER', voucherBatchId: 'b-1', reason: 'Summer' })]);
  });

  it('lets a renewal count from the extended end', () => {
    const renewedAt = new Date('2026-02-27T10:05:00Z');
    const [renewal] = renewSubscription(
      { paymentId: 9, discountPercent: 0, at: renewedAt, automatic: true },
      stateOf([purchased, activated, extended()]),
    );
    expect(renewal).toMatchObject({
      data: { previousEndDate: '2026-03-02T10:05:00.000Z', endDate: '2026-04-02T10:05:00.000Z' },
    });
  });
});
