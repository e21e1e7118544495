import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  depositAmountMinor,
  depositFacts,
  type OpenedCheckout,
  type OpenedInvoice,
  openCardDeposit,
  openCryptoDeposit,
} from './deposits';
import type { PaymentEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';
import type { PaymentState } from './payment.state';

const userUuid = '11111111-1111-4111-8111-111111111111';
const owner = { userUuid, email: 'dana@example.com' };
const at = new Date('2026-03-01T10:00:00.000Z');
const openedAt = at.toISOString();
const reportedAt = '2026-03-01T10:05:00.000Z';

const checkout: OpenedCheckout = {
  paymentId: 7,
  owner,
  amountMinor: 2_500,
  checkoutSessionId: 'cs_1',
  url: 'https://checkout.stripe.test/c/pay/cs_1',
  provider: 'STRIPE',
};
const invoice: OpenedInvoice = {
  paymentId: 8,
  owner,
  amountMinor: 2_000,
  method: 'CRYPTO_BTC',
  invoiceId: '1000000001',
  invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/1000000001',
  payCurrency: 'btc',
  provider: 'SANDBOX',
  counterAccount: 'world:sandbox-cashier',
};

const cardOpened: PaymentEvent[] = [
  {
    type: 'PaymentRecorded',
    data: recordedPayment({
      method: 'CARD',
      aggregator: 'STRIPE',
      status: 'PENDING',
      amountMinor: 2_500,
      counterAccount: 'world:stripe',
      comment: null,
      createdAt: openedAt,
      bonusForPaymentId: null,
      bonusPaymentId: null,
    }),
  },
  {
    type: 'CardCheckoutOpened',
    data: {
      paymentId: 7,
      userUuid,
      provider: 'STRIPE',
      checkoutSessionId: 'cs_1',
      checkoutUrl: checkout.url,
      amountAskedMinor: 2_500,
      openedAt,
    },
  },
];
const cryptoOpened: PaymentEvent[] = [
  {
    type: 'PaymentRecorded',
    data: recordedPayment({
      paymentId: 8,
      method: 'CRYPTO_BTC',
      aggregator: 'CASHIER',
      status: 'PENDING',
      amountMinor: 2_000,
      counterAccount: 'world:sandbox-cashier',
      comment: null,
      createdAt: openedAt,
      bonusForPaymentId: null,
      bonusPaymentId: null,
    }),
  },
  {
    type: 'CashierInvoiceOpened',
    data: {
      paymentId: 8,
      userUuid,
      provider: 'SANDBOX',
      invoiceId: '1000000001',
      invoiceUrl: invoice.invoiceUrl,
      payCurrency: 'btc',
      amountAskedMinor: 2_000,
      openedAt,
    },
  },
];

/** The events `decide` adds after `history`, appended to it. */
const after = (history: PaymentEvent[], decide: (state: PaymentState | null) => PaymentEvent[]) => [
  ...history,
  ...decide(fold(paymentDecider, history)),
];

const { given } = deciderSpec(paymentDecider);

describe('a card deposit opening (docs/adr/0029-card-checkout.md)', () => {
  it('given no payment, when a checkout is opened, then a PENDING STRIPE card deposit is recorded with it', () => {
    given([])
      .when((state) => openCardDeposit(checkout, at, state))
      .then(cardOpened);
  });

  it('given no payment, when the sandbox card opens the checkout, then the deposit records the sandbox and its account (ADR 0080)', () => {
    given([])
      .when((state) => openCardDeposit({ ...checkout, provider: 'SANDBOX' }, at, state))
      .then([
        { ...cardOpened[0], data: { ...cardOpened[0].data, counterAccount: 'world:sandbox-card' } } as PaymentEvent,
        { ...cardOpened[1], data: { ...cardOpened[1].data, provider: 'SANDBOX' } } as PaymentEvent,
      ]);
  });

  it('given the deposit is recorded, when the same checkout is opened again, then it is a bug, not a second payment', () => {
    expect(() =>
      given(cardOpened)
        .when((state) => openCardDeposit(checkout, at, state))
        .then([]),
    ).toThrow(/Assertion failed/);
  });
});

describe('a crypto deposit opening (docs/adr/0028-crypto-cashier.md)', () => {
  it('given no payment, when an invoice is opened, then a PENDING CASHIER deposit is recorded with it', () => {
    given([])
      .when((state) => openCryptoDeposit(invoice, at, state))
      .then(cryptoOpened);
  });

  it('given the deposit is recorded, when the same invoice is opened again, then it is a bug', () => {
    expect(() =>
      given(cryptoOpened)
        .when((state) => openCryptoDeposit(invoice, at, state))
        .then([]),
    ).toThrow(/Assertion failed/);
  });
});

describe("a deposit's facts", () => {
  it('given no payment, then there are none', () => {
    expect(depositFacts(fold(paymentDecider, []))).toBeNull();
  });

  it('given an opened card deposit, then it is by card and brought nothing yet', () => {
    expect(depositFacts(fold(paymentDecider, cardOpened))).toEqual({
      paymentId: 7,
      userUuid,
      amountReceivedMinor: 0,
      byCard: true,
    });
  });

  it('given a card deposit reported paid, then it brought what was paid', () => {
    const paid = after(cardOpened, (state) =>
      paymentDecider.decide(
        {
          type: 'ApplyCardReport',
          report: {
            provider: 'STRIPE',
            providerEventId: 'evt_1',
            providerEventType: 'checkout.session.completed',
            providerPaymentId: 'pi_1',
            providerStatus: 'paid',
            amountTotalMinor: 2_500,
            currency: 'usd',
          },
          reportedAt,
        },
        state,
      ),
    );
    expect(depositFacts(fold(paymentDecider, paid))).toMatchObject({ amountReceivedMinor: 2_500, byCard: true });
  });

  it('given a crypto deposit paid in full, then it is not by card and brought the invoice', () => {
    const paid = after(cryptoOpened, (state) =>
      paymentDecider.decide(
        {
          type: 'ApplyCashierReport',
          paymentId: 8,
          report: { providerPaymentId: 'np_1', providerStatus: 'finished', payAmount: '0.002', actuallyPaid: '0.002' },
          source: 'IPN',
          reportedAt,
          timeOutIfPending: false,
        },
        state,
      ),
    );
    expect(depositFacts(fold(paymentDecider, paid))).toEqual({
      paymentId: 8,
      userUuid,
      amountReceivedMinor: 2_000,
      byCard: false,
    });
  });
});

describe('the amount a deposit must bring', () => {
  const minimumMinor = 1_000;

  it('given a price above the cashier minimum, then the price', () => {
    expect(depositAmountMinor(1_001, minimumMinor)).toBe(1_001);
  });

  it('given a price of exactly the cashier minimum, then that amount', () => {
    expect(depositAmountMinor(1_000, minimumMinor)).toBe(1_000);
  });

  it('given a price below the cashier minimum, then the minimum', () => {
    expect(depositAmountMinor(999, minimumMinor)).toBe(1_000);
    expect(depositAmountMinor(0, minimumMinor)).toBe(1_000);
  });
});
