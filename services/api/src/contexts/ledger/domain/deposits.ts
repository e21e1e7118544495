import type { CardProvider, CashierInvoiceOpenedData, CryptoMethod, LedgerAccount } from '@kupa/proto';
import { type CardReportDecision, type CardReportInput, type CardReportStates, settleCardReport } from './card-report';
import type { PaymentEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import type { PaymentState } from './payment.state';
import { pendingProviderDeposit } from './provider-deposit';
import { cardCounterAccount } from './wallet.decider';

/*
 * Deposits a payment provider settles (a card checkout, a crypto invoice), as any flow opens them: the provider is
 * asked first (`application/`), then the deposit's opening is decided here inside the caller's own command, beside
 * whatever else that command appends (a top-up appends nothing else; a purchase appends its own request).
 */

/** Whose a deposit is: the owner's id and the e-mail the payment records. */
export interface DepositOwner {
  userUuid: string;
  email: string;
}

/** A card deposit's checkout at the provider, before its payment is recorded. */
export interface OpenedCheckout {
  paymentId: number;
  owner: DepositOwner;
  amountMinor: number;
  checkoutSessionId: string;
  url: string;
  /** Who holds the checkout, as the card provider that opened it says: `SANDBOX` for the sandbox card (ADR 0080). */
  provider: CardProvider;
}

/** A crypto deposit's invoice at the cashier, before its payment is recorded. */
export interface OpenedInvoice {
  paymentId: number;
  owner: DepositOwner;
  amountMinor: number;
  method: CryptoMethod;
  invoiceId: string;
  invoiceUrl: string;
  payCurrency: string;
  provider: CashierInvoiceOpenedData['provider'];
  counterAccount: LedgerAccount;
}

/** What the ledger knows of a deposit: whose it is, what it brought, and how it came. */
export interface DepositFacts {
  paymentId: number;
  userUuid: string;
  /** What the deposit brought so far, in cents. */
  amountReceivedMinor: number;
  /** Whether the money came by card checkout (docs/adr/0029-card-checkout.md) rather than the crypto cashier. */
  byCard: boolean;
}

/**
 * A card deposit's opening: `PaymentRecorded` (PENDING, STRIPE, CARD) and `CardCheckoutOpened`, on its stream. The
 * checkout's provider is recorded, and the payment's counter account follows it: a sandbox checkout's money will come
 * from `world:sandbox-card`, never from `world:stripe`.
 */
export function openCardDeposit(checkout: OpenedCheckout, at: Date, state: PaymentState | null): PaymentEvent[] {
  const { paymentId, owner, amountMinor } = checkout;
  const createdAt = at.toISOString();
  const recorded = pendingProviderDeposit({
    paymentId,
    owner,
    method: 'CARD',
    aggregator: 'STRIPE',
    counterAccount: cardCounterAccount(checkout.provider),
    amountMinor,
    createdAt,
  });
  return paymentDecider.decide(
    {
      type: 'OpenCardCheckout',
      payment: recorded,
      checkout: {
        paymentId,
        userUuid: owner.userUuid,
        provider: checkout.provider,
        checkoutSessionId: checkout.checkoutSessionId,
        checkoutUrl: checkout.url,
        amountAskedMinor: amountMinor,
        openedAt: createdAt,
      },
    },
    state,
  );
}

/** A saved card's off-session charge that the provider took (docs/adr/0086-renewals-charged-to-the-saved-card.md). */
export interface OffSessionCardCharge {
  paymentId: number;
  owner: DepositOwner;
  /** What was asked of the card: what the provider's answer must say, in dollars, to be credited as asked. */
  amountAskedMinor: number;
  /** The provider's PaymentIntent: the deposit's provider payment and its "checkout". */
  paymentIntentId: string;
  provider: CardProvider;
}

/**
 * An off-session charge of a saved card, booked as a card deposit whose checkout is the provider's PaymentIntent:
 * opened and settled by the provider's report in one decision, so a card renewal's money reaches the wallet by the
 * same rules (and the same ledger checks) as a card top-up's: credited once, only as asked in dollars (else held for
 * review), from `world:stripe` or `world:sandbox-card`, with an ambassador's bonus.
 */
export function bookOffSessionCardCharge(
  charge: OffSessionCardCharge,
  input: CardReportInput,
  states: CardReportStates,
): CardReportDecision {
  const opening = openCardDeposit(
    {
      paymentId: charge.paymentId,
      owner: charge.owner,
      amountMinor: charge.amountAskedMinor,
      checkoutSessionId: charge.paymentIntentId,
      // An off-session charge has no page anybody pays on.
      url: '',
      provider: charge.provider,
    },
    input.at,
    states.deposit,
  );
  const opened = opening.reduce(paymentDecider.evolve, states.deposit);
  const decision = settleCardReport(input, { ...states, deposit: opened });
  return { ...decision, payment: [...opening, ...decision.payment] };
}

/** A crypto deposit's opening: the PENDING payment of an opened invoice, and the invoice, on its stream. */
export function openCryptoDeposit(invoice: OpenedInvoice, at: Date, state: PaymentState | null): PaymentEvent[] {
  const { paymentId, owner, amountMinor, method } = invoice;
  const createdAt = at.toISOString();
  const recorded = pendingProviderDeposit({
    paymentId,
    owner,
    method,
    aggregator: 'CASHIER',
    counterAccount: invoice.counterAccount,
    amountMinor,
    createdAt,
  });
  return paymentDecider.decide(
    {
      type: 'OpenCashierDeposit',
      payment: recorded,
      invoice: {
        paymentId,
        userUuid: owner.userUuid,
        provider: invoice.provider,
        invoiceId: invoice.invoiceId,
        invoiceUrl: invoice.invoiceUrl,
        payCurrency: invoice.payCurrency,
        amountAskedMinor: amountMinor,
        openedAt: createdAt,
      },
    },
    state,
  );
}

/** A deposit's facts from its payment's state (under its lock, or as a decision leaves it); null for no payment. */
export function depositFacts(state: PaymentState | null): DepositFacts | null {
  if (state === null) return null;
  return {
    paymentId: state.paymentId,
    userUuid: state.userUuid,
    amountReceivedMinor: state.cashier?.amountReceivedMinor ?? state.card?.amountReceivedMinor ?? 0,
    byCard: state.card !== null,
  };
}

/**
 * What a deposit meant to bring `priceMinor` asks: that, raised to the cashier's minimum deposit, since the cashier
 * opens no invoice below it.
 */
export function depositAmountMinor(priceMinor: number, minimumMinor: number): number {
  return Math.max(priceMinor, minimumMinor);
}
