import type { CardCheckoutOpenedData, PaymentRecordedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';

const recorded = recordedPayment;
const changedAt = '2026-03-02T10:00:00.000Z';

const { given } = deciderSpec(paymentDecider);

describe('card deposit part of the payment decider (docs/adr/0029-card-checkout.md)', () => {
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
    report: {
      provider: 'STRIPE' as const,
      providerEventId,
      providerEventType,
      providerPaymentId: 'pi_1',
      providerStatus,
      ...reported,
    },
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

  it('opens a PENDING card deposit with its checkout, once', () => {
    const payment = opened[0].data as PaymentRecordedData;
    const checkout = opened[1].data as CardCheckoutOpenedData;
    const open = { type: 'OpenCardCheckout' as const, payment, checkout };
    given([]).when(open).then(opened);
    expect(fold(paymentDecider, opened)?.card).toMatchObject({
      checkoutSessionId: 'cs_1',
      amountAskedMinor: 2500,
      providerStatus: 'unpaid',
      amountReceivedMinor: 0,
      mismatch: null,
    });
    expect(() => given(opened).when(open).then([])).toThrow(/Assertion failed/);
  });

  it('refuses a report on an unknown payment, and on a payment that has no checkout', () => {
    given([]).when(report('evt_1', 'paid')).thenRejects('error.payment.not.found');
    given([{ type: 'PaymentRecorded', data: recorded() }])
      .when(report('evt_1', 'paid'))
      .thenRejects('error.card.webhook.signature.invalid');
  });

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
