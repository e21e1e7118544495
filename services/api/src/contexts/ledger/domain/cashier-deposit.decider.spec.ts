import type { CashierInvoiceOpenedData, PaymentRecordedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import type { PaymentEvent } from './ledger.events';
import { type CashierReport, paymentDecider } from './payment.decider';

const userUuid = '11111111-1111-4111-8111-111111111111';
const openedAt = '2026-03-01T10:00:00.000Z';
const reportedAt = '2026-03-01T10:05:00.000Z';

const deposit: PaymentRecordedData = {
  paymentId: 7,
  userUuid,
  userEmail: 'dana@example.com',
  type: 'DEPOSIT',
  method: 'CRYPTO_BTC',
  aggregator: 'CASHIER',
  status: 'PENDING',
  amountMinor: 2_000,
  currency: 'USD',
  comment: null,
  publicNote: null,
  counterAccount: 'world:cashier',
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  discountPercent: 0,
  createdAt: openedAt,
};
const invoice: CashierInvoiceOpenedData = {
  paymentId: 7,
  userUuid,
  provider: 'SANDBOX',
  invoiceId: '1000000001',
  invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/1000000001',
  payCurrency: 'btc',
  amountAskedMinor: 2_000,
  openedAt,
};
const opened: PaymentEvent[] = [
  { type: 'PaymentRecorded', data: deposit },
  { type: 'CashierInvoiceOpened', data: invoice },
];

/** The invoice asked 0.002 btc for $20: `actuallyPaid` of 0.001 is $10. */
const report = (
  providerPaymentId: string,
  providerStatus: CashierReport['providerStatus'],
  actuallyPaid: string,
): CashierReport => ({ providerPaymentId, providerStatus, payAmount: '0.002', actuallyPaid });
const apply = (
  cashierReport: CashierReport | null,
  options: { timeOutIfPending?: boolean; maxCreditMinor?: number; bonusPaymentId?: number } = {},
) => ({
  type: 'ApplyCashierReport' as const,
  paymentId: 7,
  report: cashierReport,
  source: 'IPN' as const,
  reportedAt,
  timeOutIfPending: options.timeOutIfPending ?? false,
  ...(options.maxCreditMinor !== undefined ? { maxCreditMinor: options.maxCreditMinor } : {}),
  ...(options.bonusPaymentId !== undefined ? { bonusPaymentId: options.bonusPaymentId } : {}),
});
/** Decides each command on the state the previous ones left, as repeated reports arrive. */
const decideAfter = (history: PaymentEvent[], commands: Array<ReturnType<typeof apply>>) => {
  let state = fold(paymentDecider, history);
  const events: PaymentEvent[] = [];
  for (const command of commands) {
    const decided = paymentDecider.decide(command, state);
    events.push(...decided);
    state = decided.reduce(paymentDecider.evolve, state);
  }
  return { events, state };
};

const { given } = deciderSpec(paymentDecider);

describe('cashier deposit part of the payment decider (docs/adr/0028-crypto-cashier.md)', () => {
  it('opens a PENDING cashier deposit with its invoice, once', () => {
    given([]).when({ type: 'OpenCashierDeposit', payment: deposit, invoice }).then(opened);
    expect(fold(paymentDecider, opened)?.cashier).toEqual({
      provider: 'SANDBOX',
      invoiceId: '1000000001',
      invoiceUrl: invoice.invoiceUrl,
      payCurrency: 'btc',
      amountAskedMinor: 2_000,
      providerPaymentId: null,
      providerStatus: null,
      providerPayments: {},
      amountReceivedMinor: 0,
      heldMinor: null,
    });
    expect(() => given(opened).when({ type: 'OpenCashierDeposit', payment: deposit, invoice }).then([])).toThrow(
      /Assertion failed/,
    );
  });

  it('credits what a finished payment brought at the invoice rate, with the bonus it names, and is SUCCESS', () => {
    given(opened)
      .when(apply(report('p1', 'finished', '0.002'), { bonusPaymentId: 8 }))
      .then([
        {
          type: 'CashierPaymentReported',
          data: {
            paymentId: 7,
            userUuid,
            source: 'IPN',
            providerPaymentId: 'p1',
            providerStatus: 'finished',
            payAmount: '0.002',
            actuallyPaid: '0.002',
            receivedMinor: 2_000,
            creditedMinor: 2_000,
            amountReceivedMinor: 2_000,
            previousStatus: 'PENDING',
            status: 'SUCCESS',
            reportedAt,
            bonusPaymentId: 8,
          },
        },
      ]);
  });

  it('credits each provider payment only for what it added, and a repeat or an older answer for nothing', () => {
    const { events, state } = decideAfter(opened, [
      apply(report('p1', 'partially_paid', '0.001')),
      apply(report('p1', 'partially_paid', '0.001')),
      apply(report('p1', 'finished', '0.002')),
      apply(report('p1', 'partially_paid', '0.001')),
    ]);
    expect(events.map((event) => (event.type === 'CashierPaymentReported' ? event.data.creditedMinor : null))).toEqual([
      1_000, 1_000, 0,
    ]);
    expect(state).toMatchObject({ status: 'SUCCESS', amountMinor: 2_000, cashier: { amountReceivedMinor: 2_000 } });
  });

  it('keeps a deposit with nothing received PENDING while the provider waits, and follows a failure', () => {
    given(opened)
      .when(apply(report('p1', 'waiting', '0')))
      .then([
        expect.objectContaining({ data: expect.objectContaining({ status: 'PENDING', creditedMinor: 0 }) }),
      ] as PaymentEvent[]);
    expect(decideAfter(opened, [apply(report('p1', 'failed', '0'))]).state?.status).toBe('FAILED');
  });

  it('times out a deposit still PENDING when the janitor says so, and decides nothing when nothing changed', () => {
    expect(decideAfter(opened, [apply(null, { timeOutIfPending: true })]).state?.status).toBe('TIMEOUT');
    given(opened).when(apply(null)).then([]);
  });

  it('holds for staff what is above the most one deposit may credit: REVIEW, and no later report credits it', () => {
    const { events, state } = decideAfter(opened, [
      apply(report('p1', 'finished', '0.002'), { maxCreditMinor: 1_500 }),
      apply(report('p1', 'finished', '0.002')),
    ]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ data: { creditedMinor: 0, heldForReviewMinor: 2_000, status: 'REVIEW' } });
    expect(state).toMatchObject({ status: 'REVIEW', cashier: { heldMinor: 2_000, amountReceivedMinor: 0 } });
  });

  it('refuses a report on an unknown payment, on a payment without an invoice, and one it cannot read', () => {
    given([])
      .when(apply(report('p1', 'finished', '0.002')))
      .thenRejects('error.payment.not.found');
    given([{ type: 'PaymentRecorded', data: { ...deposit, aggregator: 'MANUAL' } }])
      .when(apply(report('p1', 'finished', '0.002')))
      .thenRejects('error.cashier.notification.invalid');
    given(opened)
      .when(apply(report('p1', 'finished', 'not a number')))
      .thenRejects('error.cashier.notification.invalid');
  });
});
