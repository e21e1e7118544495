import type { AmbassadorBonusTier, UserRole } from '@kupa/proto';
import { assert } from '../../../kernel';
import { bookAmbassadorBonus, earnedAmbassadorBonus } from './ambassador-bonus';
import type { PaymentEvent, WalletEvent } from './ledger.events';
import { type CardReport, paymentDecider } from './payment.decider';
import type { PaymentState } from './payment.state';
import { walletDecider } from './wallet.decider';
import type { WalletState } from './wallet.state';

/** The streams a card report decides over, as the command loaded them under their locks. */
export interface CardReportStates {
  deposit: PaymentState | null;
  wallet: WalletState;
  /**
   * The spare payment stream named for the bonus the credit may earn (`mayEarnAmbassadorBonus`); null when the
   * command named none, and then no bonus is booked.
   */
  bonus: { paymentId: number; state: PaymentState | null } | null;
}

/** What the report says, when, and what the decision cannot know by itself. */
export interface CardReportInput {
  report: CardReport;
  at: Date;
  /** The owner's role, read before the locks (identity's). */
  role: UserRole;
  tiers: readonly AmbassadorBonusTier[];
  /** Fresh ids of the credit's and the bonus's ledger transactions. */
  transactionIds: { credit: string; bonus: string };
}

/** What a card report decided, and the deposit and wallet as they are after it (for what the same append adds). */
export interface CardReportDecision {
  payment: PaymentEvent[];
  wallet: WalletEvent[];
  /** The AMBASSADOR_BONUS payment's `PaymentRecorded`, when the credit earned one. */
  bonus: PaymentEvent[];
  creditedMinor: number;
  depositAfter: PaymentState | null;
  walletAfter: WalletState;
}

/**
 * Whether a card deposit's credit may earn an ambassador bonus, so that the command names a spare payment stream for
 * it up front (an unused id is a harmless gap).
 */
export function mayEarnAmbassadorBonus(role: UserRole): boolean {
  return role === 'AMBASSADOR';
}

/**
 * A card report's effects (docs/adr/0029-card-checkout.md): the payment's `CardPaymentReported` and, the first time
 * the checkout is seen paid, the wallet's `CardDepositCredited` from `world:stripe` (from `world:sandbox-card` for a
 * checkout the sandbox card holds, ADR 0080). An ambassador's credit also books
 * the bonus its tier earns (docs/product.md, Referrals and bonuses) on the bonus stream: the AMBASSADOR_BONUS
 * payment, `AmbassadorBonusCredited`, and the deposit's link to it in the report. A report that changes nothing, or
 * pays a checkout already paid, credits nothing.
 */
export function settleCardReport(input: CardReportInput, states: CardReportStates): CardReportDecision {
  const { deposit, wallet, bonus } = states;
  const command = { type: 'ApplyCardReport' as const, report: input.report, reportedAt: input.at.toISOString() };
  let payment = paymentDecider.decide(command, deposit);
  const reported = payment.find((event) => event.type === 'CardPaymentReported');
  const creditedMinor = reported?.type === 'CardPaymentReported' ? reported.data.creditedMinor : 0;
  let depositAfter = payment.reduce(paymentDecider.evolve, deposit);
  if (creditedMinor === 0 || depositAfter === null)
    return { payment, wallet: [], bonus: [], creditedMinor, depositAfter, walletAfter: wallet };
  const card = depositAfter.card;
  assert(card !== null, 'only a card checkout is credited by a card report');
  let walletEvents = walletDecider.decide(
    {
      type: 'CreditCardDeposit',
      userUuid: depositAfter.userUuid,
      paymentId: depositAfter.paymentId,
      providerPaymentId: card.providerPaymentId ?? card.checkoutSessionId,
      amountMinor: creditedMinor,
      transactionId: input.transactionIds.credit,
      // The checkout as opened says where its money comes from, whoever the card provider is now.
      provider: card.provider,
    },
    wallet,
  );
  let bonusEvents: PaymentEvent[] = [];
  const earned =
    bonus === null
      ? null
      : earnedAmbassadorBonus(
          { role: input.role, type: 'DEPOSIT', correction: false, amountMinor: creditedMinor },
          input.tiers,
        );
  if (bonus !== null && earned !== null) {
    const booked = bookAmbassadorBonus(
      depositAfter,
      earned,
      { bonusPaymentId: bonus.paymentId, transactionId: input.transactionIds.bonus },
      walletEvents.reduce(walletDecider.evolve, wallet),
    );
    walletEvents = [...walletEvents, ...booked.walletEvents];
    bonusEvents = paymentDecider.decide({ type: 'RecordPayment', payment: booked.bonus }, bonus.state);
    payment = paymentDecider.decide({ ...command, bonusPaymentId: bonus.paymentId }, deposit);
    depositAfter = payment.reduce(paymentDecider.evolve, deposit);
  }
  return {
    payment,
    wallet: walletEvents,
    bonus: bonusEvents,
    creditedMinor,
    depositAfter,
    walletAfter: walletEvents.reduce(walletDecider.evolve, wallet),
  };
}
