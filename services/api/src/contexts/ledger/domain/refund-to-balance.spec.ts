import { userAccount } from '@kupa/proto';
import { deciderSpec } from '../../../test-support/decider-spec';
import { paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';
import { decideRefundToBalance } from './wallet-payment';
import { SUBSCRIPTION_REVENUE_ACCOUNT } from './wallet.decider';

const refundedAt = '2026-03-05T10:00:00.000Z';
const subscriptionId = '22222222-2222-4222-8222-222222222222';
const subscriptionPayment = (overrides: Parameters<typeof recordedPayment>[0] = {}) =>
  recordedPayment({
    type: 'SUBSCRIPTION_PAYMENT',
    method: 'BALANCE',
    aggregator: 'INTERNAL',
    counterAccount: SUBSCRIPTION_REVENUE_ACCOUNT,
    amountMinor: 990,
    comment: null,
    ...overrides,
  });
const refundCommand = {
  type: 'RefundToBalance' as const,
  paymentId: 7,
  refundPaymentId: 8,
  subscriptionId,
  reason: 'outage',
  endedSubscription: true,
  refundedAt,
};

const { given } = deciderSpec(paymentDecider);

describe('refunding a subscription payment to the balance (ADR 0092)', () => {
  it('marks a SUCCESS subscription payment refunded by its REFUND, with the whole amount and the reason', () =>
    given([{ type: 'PaymentRecorded', data: subscriptionPayment() }])
      .when(refundCommand)
      .then([
        {
          type: 'PaymentRefundedToBalance',
          data: {
            paymentId: 7,
            userUuid: subscriptionPayment().userUuid,
            refundPaymentId: 8,
            subscriptionId,
            amountMinor: 990,
            reason: 'outage',
            endedSubscription: true,
            refundedAt,
          },
        },
      ]));

  it('refunds a payment at most once', () =>
    given([
      { type: 'PaymentRecorded', data: subscriptionPayment() },
      {
        type: 'PaymentRefundedToBalance',
        data: {
          paymentId: 7,
          userUuid: subscriptionPayment().userUuid,
          refundPaymentId: 8,
          subscriptionId,
          amountMinor: 990,
          reason: 'outage',
          endedSubscription: false,
          refundedAt,
        },
      },
    ])
      .when({ ...refundCommand, refundPaymentId: 9 })
      .thenRejects('error.payment.already.refunded'));

  it('refuses every other payment, one not on the books, and an unknown one', () => {
    given([{ type: 'PaymentRecorded', data: recordedPayment() }])
      .when(refundCommand)
      .thenRejects('error.payment.not.refundable');
    given([{ type: 'PaymentRecorded', data: subscriptionPayment({ type: 'REFUND' }) }])
      .when(refundCommand)
      .thenRejects('error.payment.not.refundable');
    given([{ type: 'PaymentRecorded', data: subscriptionPayment({ status: 'FAILED' }) }])
      .when(refundCommand)
      .thenRejects('error.payment.not.refundable');
    given([]).when(refundCommand).thenRejects('error.payment.not.found');
  });

  it('books the money back from revenue to the wallet as one balanced transaction, with a REFUND payment', () => {
    const original = paymentDecider.evolve(null, { type: 'PaymentRecorded', data: subscriptionPayment() });
    const user = { uuid: subscriptionPayment().userUuid, email: 'dana@example.com' };
    const events = decideRefundToBalance(
      { wallet: { balanceMinor: 0 }, payment: null, refunded: original },
      {
        user,
        refundedPaymentId: 7,
        refundPaymentId: 8,
        subscriptionId,
        reason: 'outage',
        endedSubscription: false,
        at: new Date(refundedAt),
      },
      'tx-1',
    );
    expect(events.wallet).toEqual([
      {
        type: 'SubscriptionRefunded',
        data: {
          userUuid: user.uuid,
          paymentId: 8,
          subscriptionId,
          amountMinor: 990,
          transaction: {
            transactionId: 'tx-1',
            postings: [{ source: SUBSCRIPTION_REVENUE_ACCOUNT, destination: userAccount(user.uuid), amountMinor: 990 }],
          },
        },
      },
    ]);
    expect(events.payment).toEqual([
      {
        type: 'PaymentRecorded',
        data: expect.objectContaining({
          paymentId: 8,
          type: 'REFUND',
          status: 'SUCCESS',
          amountMinor: 990,
          counterAccount: SUBSCRIPTION_REVENUE_ACCOUNT,
          comment: 'outage',
        }),
      },
    ]);
    expect(events.refunded.map((event) => event.type)).toEqual(['PaymentRefundedToBalance']);
  });
});
