import { creditsUser, type PaymentRecordedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { moneyEffectOf, paymentDecider } from './payment.decider';

const recorded = (overrides: Partial<PaymentRecordedData> = {}): PaymentRecordedData => ({
  paymentId: 7,
  userUuid: '11111111-1111-4111-8111-111111111111',
  userEmail: 'dana@example.com',
  type: 'DEPOSIT',
  method: 'MANUAL_TRANSFER',
  aggregator: 'MANUAL',
  status: 'SUCCESS',
  amountMinor: 1250,
  currency: 'USD',
  comment: 'wire',
  publicNote: null,
  counterAccount: 'world:manual',
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  discountPercent: 0,
  createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});
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

  it('evolves status, update time and the public note, a change without a note clearing the earlier one', () => {
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

  describe('a deposit that pays for a purchase (ADR 0030)', () => {
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
    const opened = paymentDecider.decide({ type: 'OpenCashierDeposit', payment: deposit, invoice, purchase }, null);

    it('records the purchase with the deposit, WAITING', () => {
      expect(opened.map((event) => event.type)).toEqual([
        'PaymentRecorded',
        'CashierInvoiceOpened',
        'DepositPurchaseRequested',
      ]);
      expect(fold(paymentDecider, opened)?.purchase).toEqual({
        kind: 'BUY',
        paymentPlanId: purchase.paymentPlanId,
        planName: 'Gold',
        subscriptionId: purchase.subscriptionId,
        login: 'dana.tv',
        priceMinor: 2_999,
        discountPercent: 0,
        status: 'WAITING',
        errorCode: null,
        subscriptionPaymentId: null,
      });
    });

    it('completes it once: a purchase already DONE or FAILED decides nothing', () => {
      const complete = {
        type: 'CompleteDepositPurchase' as const,
        subscriptionPaymentId: 9,
        chargedMinor: 2_999,
        completedAt: changedAt,
      };
      const done = paymentDecider.decide(complete, fold(paymentDecider, opened));
      expect(done).toEqual([
        {
          type: 'DepositPurchaseCompleted',
          data: {
            paymentId: 7,
            userUuid: purchase.userUuid,
            kind: 'BUY',
            subscriptionId: purchase.subscriptionId,
            subscriptionPaymentId: 9,
            chargedMinor: 2_999,
            completedAt: changedAt,
          },
        },
      ]);
      const after = fold(paymentDecider, [...opened, ...done]);
      expect(after?.purchase).toMatchObject({ status: 'DONE', subscriptionPaymentId: 9 });
      expect(after?.updatedAt).toBe(changedAt);
      expect(paymentDecider.decide(complete, after)).toEqual([]);
      expect(
        paymentDecider.decide(
          { type: 'FailDepositPurchase', errorCode: 'error.plan.no.longer.available', failedAt: changedAt },
          after,
        ),
      ).toEqual([]);
    });

    it('fails it with the code and what the deposit brought, once', () => {
      const fail = {
        type: 'FailDepositPurchase' as const,
        errorCode: 'error.plan.no.longer.available' as const,
        failedAt: changedAt,
      };
      const failed = paymentDecider.decide(fail, fold(paymentDecider, opened));
      expect(failed).toEqual([
        {
          type: 'DepositPurchaseFailed',
          data: {
            paymentId: 7,
            userUuid: purchase.userUuid,
            kind: 'BUY',
            errorCode: 'error.plan.no.longer.available',
            amountReceivedMinor: 0,
            failedAt: changedAt,
          },
        },
      ]);
      const after = fold(paymentDecider, [...opened, ...failed]);
      expect(after?.purchase).toMatchObject({ status: 'FAILED', errorCode: 'error.plan.no.longer.available' });
      expect(paymentDecider.decide(fail, after)).toEqual([]);
    });

    it('treats completing a purchase on a payment that pays for none as a bug', () => {
      expect(() =>
        paymentDecider.decide(
          { type: 'CompleteDepositPurchase', subscriptionPaymentId: 9, chargedMinor: 1, completedAt: changedAt },
          fold(paymentDecider, [{ type: 'PaymentRecorded', data: recorded() }]),
        ),
      ).toThrow(/Assertion failed/);
    });
  });
});

describe('payment decider: card reports (docs/adr/0029-card-checkout.md)', () => {
  const userUuid = '11111111-1111-4111-8111-111111111111';
  const opened = [
    {
      type: 'PaymentRecorded' as const,
      data: recorded({
        method: 'CARD',
        aggregator: 'STRIPE',
        status: 'PENDING',
        amountMinor: 2500,
        counterAccount: 'world:stripe',
        comment: null,
      }),
    },
    {
      type: 'CardCheckoutOpened' as const,
      data: {
        paymentId: 7,
        userUuid,
        provider: 'STRIPE' as const,
        checkoutSessionId: 'cs_1',
        checkoutUrl: 'https://checkout.stripe.test/c/pay/cs_1',
        amountAskedMinor: 2500,
        openedAt: changedAt,
      },
    },
  ];
  const report = (
    providerEventId: string,
    providerStatus: 'unpaid' | 'paid' | 'failed' | 'expired',
    providerEventType = 'checkout.session.completed',
    reported: { amountTotalMinor: number; currency: string | null } = { amountTotalMinor: 2500, currency: 'usd' },
  ) => ({
    type: 'ApplyCardReport' as const,
    report: { providerEventId, providerEventType, providerPaymentId: 'pi_1', providerStatus, ...reported },
    reportedAt: changedAt,
  });
  const decideAfter = (commands: Array<ReturnType<typeof report>>) => {
    let state = fold(paymentDecider, opened);
    const all = [];
    for (const command of commands) {
      const events = paymentDecider.decide(command, state);
      all.push(...events);
      state = events.reduce(paymentDecider.evolve, state);
    }
    return { events: all, state };
  };

  it('credits a paid checkout once, with the amount it brought', () => {
    const { events, state } = decideAfter([report('evt_1', 'paid')]);
    expect(events).toEqual([
      {
        type: 'CardPaymentReported',
        data: {
          paymentId: 7,
          userUuid,
          providerEventId: 'evt_1',
          providerEventType: 'checkout.session.completed',
          providerPaymentId: 'pi_1',
          providerStatus: 'paid',
          creditedMinor: 2500,
          amountReceivedMinor: 2500,
          previousStatus: 'PENDING',
          status: 'SUCCESS',
          reportedAt: changedAt,
        },
      },
    ]);
    expect(state?.card).toMatchObject({ amountReceivedMinor: 2500, providerEventIds: ['evt_1'] });
  });

  it('given a $25 checkout, when it is reported paid in EUR or for 1 cent, then nothing is credited and it waits in REVIEW', () => {
    for (const reported of [
      { amountTotalMinor: 2500, currency: 'eur' },
      { amountTotalMinor: 1, currency: 'usd' },
      { amountTotalMinor: 2500, currency: null },
      { amountTotalMinor: 0, currency: 'usd' },
    ]) {
      const { events, state } = decideAfter([report('evt_1', 'paid', undefined, reported)]);
      expect(events).toEqual([
        {
          type: 'CardPaymentReported',
          data: expect.objectContaining({
            creditedMinor: 0,
            amountReceivedMinor: 0,
            status: 'REVIEW',
            mismatch: reported,
          }),
        },
      ]);
      expect(state).toMatchObject({ status: 'REVIEW', card: { mismatch: reported, amountReceivedMinor: 0 } });
      // Held for staff: a later report, even a correct one, credits nothing.
      expect(decideAfter([report('evt_1', 'paid', undefined, reported), report('evt_2', 'paid')]).events).toHaveLength(
        1,
      );
    }
  });

  it('decides nothing for an event id already applied, nor for a paid report after the credit', () => {
    expect(decideAfter([report('evt_1', 'paid'), report('evt_1', 'paid')]).events).toHaveLength(1);
    expect(decideAfter([report('evt_1', 'paid'), report('evt_2', 'paid')]).events).toHaveLength(1);
  });

  it('never takes back a credit: a failure or an expiry after the money arrived changes nothing', () => {
    const { events, state } = decideAfter([
      report('evt_1', 'paid'),
      report('evt_2', 'failed', 'checkout.session.async_payment_failed'),
      report('evt_3', 'expired', 'checkout.session.expired'),
    ]);
    expect(events).toHaveLength(1);
    expect(state).toMatchObject({ status: 'SUCCESS', card: { providerStatus: 'paid', amountReceivedMinor: 2500 } });
  });

  it('keeps an unpaid checkout PENDING, fails it on a failed delayed payment, and credits money that arrives after', () => {
    const pending = decideAfter([report('evt_1', 'unpaid')]);
    expect(pending.state).toMatchObject({ status: 'PENDING', card: { providerPaymentId: 'pi_1' } });
    const failed = decideAfter([report('evt_1', 'unpaid'), report('evt_2', 'failed')]);
    expect(failed.state).toMatchObject({ status: 'FAILED', card: { amountReceivedMinor: 0 } });
    const late = decideAfter([report('evt_1', 'unpaid'), report('evt_2', 'failed'), report('evt_3', 'paid')]);
    expect(late.state).toMatchObject({ status: 'SUCCESS', card: { amountReceivedMinor: 2500 } });
    expect(decideAfter([report('evt_1', 'expired')]).state?.status).toBe('TIMEOUT');
  });
});
