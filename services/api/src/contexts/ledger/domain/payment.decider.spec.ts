import { creditsUser } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { moneyEffectOf, paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';

const recorded = recordedPayment;
const changedAt = '2026-03-02T10:00:00.000Z';

const { given } = deciderSpec(paymentDecider);

describe('payment decider', () => {
  it('records a payment once', () => {
    given([])
      .when({ type: 'RecordPayment', payment: recorded() })
      .then([{ type: 'PaymentRecorded', data: recorded() }]);
    expect(() =>
      given([{ type: 'PaymentRecorded', data: recorded() }])
        .when({ type: 'RecordPayment', payment: recorded() })
        .then([]),
    ).toThrow(/Assertion failed/);
  });

  it('changes a manual payment status, remembering the previous one and what staff tell the client', () =>
    given([{ type: 'PaymentRecorded', data: recorded() }])
      .when({
        type: 'ChangePaymentStatus',
        paymentId: 7,
        status: 'FAILED',
        changedAt,
        publicNote: 'The bank returned the transfer',
      })
      .then([
        {
          type: 'PaymentStatusChanged',
          data: {
            paymentId: 7,
            userUuid: recorded().userUuid,
            previousStatus: 'SUCCESS',
            status: 'FAILED',
            changedAt,
            publicNote: 'The bank returned the transfer',
          },
        },
      ]));

  it('stays quiet when the status does not change', () =>
    given([{ type: 'PaymentRecorded', data: recorded() }])
      .when({ type: 'ChangePaymentStatus', paymentId: 7, status: 'SUCCESS', changedAt, publicNote: null })
      .then([]));

  it('refuses status changes of payments that are not manual, and of unknown payments', () => {
    given([
      { type: 'PaymentRecorded', data: recorded({ aggregator: 'INTERNAL', type: 'TRANSFER_OUT', method: 'BALANCE' }) },
    ])
      .when({ type: 'ChangePaymentStatus', paymentId: 7, status: 'FAILED', changedAt, publicNote: null })
      .thenRejects('error.payment.status.manual.only');
    given([])
      .when({ type: 'ChangePaymentStatus', paymentId: 7, status: 'FAILED', changedAt, publicNote: null })
      .thenRejects('error.payment.not.found');
  });

  it('keeps the message the client was shown when staff change the status with no note', () =>
    given([
      { type: 'PaymentRecorded', data: recorded({ publicNote: 'Received, thank you' }) },
      {
        type: 'PaymentStatusChanged',
        data: {
          paymentId: 7,
          userUuid: recorded().userUuid,
          previousStatus: 'SUCCESS',
          status: 'REJECTED',
          changedAt,
          publicNote: 'Sent from an account not in your name',
        },
      },
    ])
      .when({
        type: 'ChangePaymentStatus',
        paymentId: 7,
        status: 'SUCCESS',
        changedAt: '2026-03-03T10:00:00.000Z',
        publicNote: null,
      })
      .then([
        {
          type: 'PaymentStatusChanged',
          data: {
            paymentId: 7,
            userUuid: recorded().userUuid,
            previousStatus: 'REJECTED',
            status: 'SUCCESS',
            changedAt: '2026-03-03T10:00:00.000Z',
            publicNote: 'Sent from an account not in your name',
          },
        },
      ]));

  it('evolves status, update time and the public note, a stored change without a note clearing the earlier one', () => {
    const change = (status: 'REJECTED' | 'SUCCESS', publicNote: string | null, at: string) => ({
      type: 'PaymentStatusChanged' as const,
      data: {
        paymentId: 7,
        userUuid: recorded().userUuid,
        previousStatus: 'SUCCESS' as const,
        status,
        changedAt: at,
        publicNote,
      },
    });
    const rejected = fold(paymentDecider, [
      { type: 'PaymentRecorded', data: recorded({ publicNote: 'Received, thank you' }) },
      change('REJECTED', 'Sent from an account not in your name', changedAt),
    ]);
    expect(rejected).toMatchObject({
      status: 'REJECTED',
      updatedAt: changedAt,
      createdAt: recorded().createdAt,
      publicNote: 'Sent from an account not in your name',
    });
    const later = '2026-03-03T10:00:00.000Z';
    const restored = fold(paymentDecider, [
      { type: 'PaymentRecorded', data: recorded({ publicNote: 'Received, thank you' }) },
      change('REJECTED', 'Sent from an account not in your name', changedAt),
      change('SUCCESS', null, later),
    ]);
    expect(restored).toMatchObject({ status: 'SUCCESS', updatedAt: later, publicNote: null });
  });

  it('moves money only when leaving or reaching SUCCESS', () => {
    expect(moneyEffectOf('SUCCESS', 'FAILED')).toBe('REVERSE');
    expect(moneyEffectOf('SUCCESS', 'REJECTED')).toBe('REVERSE');
    expect(moneyEffectOf('SUCCESS', 'REFUNDED')).toBe('REVERSE');
    expect(moneyEffectOf('FAILED', 'SUCCESS')).toBe('REAPPLY');
    expect(moneyEffectOf('REJECTED', 'SUCCESS')).toBe('REAPPLY');
    expect(moneyEffectOf('FAILED', 'REJECTED')).toBeNull();
    expect(moneyEffectOf('PENDING', 'TIMEOUT')).toBeNull();
    expect(moneyEffectOf('SUCCESS', 'SUCCESS')).toBeNull();
  });

  it('knows which payment types credit the user', () => {
    expect(['DEPOSIT', 'TRANSFER_IN', 'REFUND', 'AMBASSADOR_BONUS'].every((type) => creditsUser(type as never))).toBe(
      true,
    );
    expect(['WITHDRAW', 'TRANSFER_OUT', 'SUBSCRIPTION_PAYMENT'].some((type) => creditsUser(type as never))).toBe(false);
  });

  describe("a purchase recorded on its deposit's stream before ADR 0068", () => {
    const openedAt = '2026-03-01T10:00:00.000Z';
    const purchase = {
      paymentId: 7,
      userUuid: '11111111-1111-4111-8111-111111111111',
      kind: 'BUY' as const,
      paymentPlanId: '44444444-4444-4444-8444-444444444444',
      planName: 'Gold',
      subscriptionId: '55555555-5555-4555-8555-555555555555',
      login: 'dana.tv',
      priceMinor: 2_999,
      discountPercent: 0,
      requestedAt: openedAt,
    };
    const deposit = recorded({
      method: 'CRYPTO_BTC',
      aggregator: 'CASHIER',
      status: 'PENDING',
      comment: null,
      counterAccount: 'world:cashier',
      amountMinor: 2_999,
    });
    const invoice = {
      paymentId: 7,
      userUuid: purchase.userUuid,
      provider: 'SANDBOX' as const,
      invoiceId: '1000000001',
      invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/1000000001',
      payCurrency: 'btc',
      amountAskedMinor: 2_999,
      openedAt,
    };
    const opened = paymentDecider.decide({ type: 'OpenCashierDeposit', payment: deposit, invoice }, null);
    const requested = { type: 'DepositPurchaseRequested' as const, data: purchase };

    it('reads the request as no change of the deposit', () => {
      expect(fold(paymentDecider, [...opened, requested])).toEqual(fold(paymentDecider, opened));
    });

    it("reads a completion or a failure as the deposit's last change only", () => {
      const completed = {
        type: 'DepositPurchaseCompleted' as const,
        data: {
          paymentId: 7,
          userUuid: purchase.userUuid,
          kind: 'BUY' as const,
          subscriptionId: purchase.subscriptionId,
          subscriptionPaymentId: 9,
          chargedMinor: 2_999,
          completedAt: changedAt,
        },
      };
      const failed = {
        type: 'DepositPurchaseFailed' as const,
        data: {
          paymentId: 7,
          userUuid: purchase.userUuid,
          kind: 'BUY' as const,
          errorCode: 'error.plan.no.longer.available' as const,
          amountReceivedMinor: 0,
          failedAt: changedAt,
        },
      };
      for (const outcome of [completed, failed])
        expect(fold(paymentDecider, [...opened, requested, outcome])).toEqual({
          ...fold(paymentDecider, opened),
          updatedAt: changedAt,
        });
    });
  });
});
