import type { DepositPurchaseRequestedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  depositPurchaseDecider,
  type DepositPurchaseEvent,
  depositPurchaseStreamId,
  depositPurchaseView,
  legacyDepositPurchaseEvents,
} from './deposit-purchase.decider';

const requestedAt = '2026-03-01T10:00:00.000Z';
const at = '2026-03-01T10:05:00.000Z';
const buy: DepositPurchaseRequestedData = {
  paymentId: 7,
  userUuid: '11111111-1111-4111-8111-111111111111',
  kind: 'BUY',
  paymentPlanId: '44444444-4444-4444-8444-444444444444',
  planName: 'Gold',
  subscriptionId: '55555555-5555-4555-8555-555555555555',
  login: 'dana.tv',
  priceMinor: 2_999,
  discountPercent: 0,
  requestedAt,
};
const renew: DepositPurchaseRequestedData = { ...buy, kind: 'RENEW', login: null };
const requested: DepositPurchaseEvent = { type: 'DepositPurchaseRequested', data: buy };
const complete = {
  type: 'CompleteDepositPurchase' as const,
  subscriptionPaymentId: 9,
  chargedMinor: 2_999,
  completedAt: at,
};
const fail = {
  type: 'FailDepositPurchase' as const,
  errorCode: 'error.plan.no.longer.available' as const,
  amountReceivedMinor: 2_999,
  failedAt: at,
};
const completed: DepositPurchaseEvent = {
  type: 'DepositPurchaseCompleted',
  data: {
    paymentId: 7,
    userUuid: buy.userUuid,
    kind: 'BUY',
    subscriptionId: buy.subscriptionId,
    subscriptionPaymentId: 9,
    chargedMinor: 2_999,
    completedAt: at,
  },
};
const failed: DepositPurchaseEvent = {
  type: 'DepositPurchaseFailed',
  data: {
    paymentId: 7,
    userUuid: buy.userUuid,
    kind: 'BUY',
    errorCode: 'error.plan.no.longer.available',
    amountReceivedMinor: 2_999,
    failedAt: at,
  },
};

const { given } = deciderSpec(depositPurchaseDecider);

describe('deposit purchase decider (docs/adr/0068-deposit-purchases-owned-by-subscriptions.md)', () => {
  it('names its own stream after the deposit it belongs to', () => {
    expect(depositPurchaseStreamId(7)).toBe('purchase-7');
  });

  it('records a purchase or a renewal once, WAITING', () => {
    given([]).when({ type: 'RequestDepositPurchase', purchase: buy, byCard: false }).then([requested]);
    given([])
      .when({ type: 'RequestDepositPurchase', purchase: renew, byCard: false })
      .then([{ type: 'DepositPurchaseRequested', data: renew }]);
    expect(fold(depositPurchaseDecider, [requested])).toMatchObject({
      status: 'WAITING',
      errorCode: null,
      subscriptionPaymentId: null,
      updatedAt: requestedAt,
    });
    expect(() =>
      given([requested]).when({ type: 'RequestDepositPurchase', purchase: buy, byCard: false }).then([]),
    ).toThrow(/Assertion failed/);
  });

  it('treats a purchase without a price, a BUY without a login and a card renewal as bugs', () => {
    for (const purchase of [
      { ...buy, priceMinor: 0 },
      { ...buy, login: null },
    ])
      expect(() => given([]).when({ type: 'RequestDepositPurchase', purchase, byCard: false }).then([])).toThrow(
        /Assertion failed/,
      );
    expect(() => given([]).when({ type: 'RequestDepositPurchase', purchase: renew, byCard: true }).then([])).toThrow(
      /Assertion failed/,
    );
  });

  it('completes it once: a purchase already DONE or FAILED decides nothing', () => {
    given([requested]).when(complete).then([completed]);
    given([requested, completed]).when(complete).then([]);
    given([requested, completed]).when(fail).then([]);
    expect(fold(depositPurchaseDecider, [requested, completed])).toMatchObject({
      status: 'DONE',
      subscriptionPaymentId: 9,
      updatedAt: at,
    });
  });

  it('fails it with the code and what the deposit brought, once', () => {
    given([requested]).when(fail).then([failed]);
    given([requested, failed]).when(fail).then([]);
    given([requested, failed]).when(complete).then([]);
    expect(fold(depositPurchaseDecider, [requested, failed])).toMatchObject({
      status: 'FAILED',
      errorCode: 'error.plan.no.longer.available',
    });
  });

  it('treats completing or failing a purchase that was never requested as a bug', () => {
    expect(() => given([]).when(complete).then([])).toThrow(/Assertion failed/);
    expect(() => given([]).when(fail).then([])).toThrow(/Assertion failed/);
  });

  it('folds a purchase written on the deposit payment stream before it had its own, then decides on it', () => {
    // A payment stream as main wrote it for a crypto deposit-and-buy: the purchase's events among the payment's.
    const paymentStream = [
      { type: 'PaymentRecorded', data: { paymentId: 7 } },
      { type: 'CashierInvoiceOpened', data: { paymentId: 7 } },
      requested,
      { type: 'CashierPaymentReported', data: { paymentId: 7 } },
    ];
    const legacy = legacyDepositPurchaseEvents(paymentStream);
    expect(legacy).toEqual([requested]);
    given(legacy).when(complete).then([completed]);
    // Completed on the payment stream already: nothing more to decide on the new stream.
    given(legacyDepositPurchaseEvents([...paymentStream, completed]))
      .when(fail)
      .then([]);
  });

  it('shows a bought subscription only once it exists, and a renewed one always', () => {
    const waiting = fold(depositPurchaseDecider, [requested]);
    expect(waiting && depositPurchaseView(waiting)).toEqual({
      kind: 'BUY',
      paymentPlanId: buy.paymentPlanId,
      planName: 'Gold',
      subscriptionId: null,
      status: 'WAITING',
      errorCode: null,
    });
    const done = fold(depositPurchaseDecider, [requested, completed]);
    expect(done && depositPurchaseView(done).subscriptionId).toBe(buy.subscriptionId);
    const renewing = fold(depositPurchaseDecider, [{ type: 'DepositPurchaseRequested', data: renew }]);
    expect(renewing && depositPurchaseView(renewing).subscriptionId).toBe(renew.subscriptionId);
  });
});
