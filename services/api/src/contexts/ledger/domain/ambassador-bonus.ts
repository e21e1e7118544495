import {
  type AmbassadorBonusTier,
  ambassadorBonusMinor,
  ambassadorBonusPercent,
  type PaymentRecordedData,
  type PaymentType,
  type UserRole,
} from '@kupa/proto';
import { assert } from '../../../kernel';
import type { PaymentEvent, WalletEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import type { PaymentState } from './payment.state';
import { BONUS_ACCOUNT, walletDecider } from './wallet.decider';
import type { WalletState } from './wallet.state';
import { WITHOUT_PERSONAL_FIELDS } from './plain-payment';

/** A bonus a deposit earned: the tier's percent and the cents it gives. */
export interface EarnedBonus {
  percent: number;
  amountMinor: number;
}

/**
 * What a deposit earns (docs/product.md, Referrals and bonuses): a bonus only on real money an AMBASSADOR paid in, a
 * DEPOSIT that is not a staff balance correction, and only from the lowest tier up. Null otherwise: a deposit never
 * earns a bonus of zero, so no empty bonus payment is ever booked. Every way money arrives (the staff's manual deposit,
 * a crypto deposit's credit through `bonusOnCashierCredit`, card deposits later) asks this.
 */
export function earnedAmbassadorBonus(
  deposit: { role: UserRole; type: PaymentType; correction: boolean; amountMinor: number },
  tiers: readonly AmbassadorBonusTier[],
): EarnedBonus | null {
  if (deposit.role !== 'AMBASSADOR' || deposit.type !== 'DEPOSIT' || deposit.correction) return null;
  const amountMinor = ambassadorBonusMinor(deposit.amountMinor, tiers);
  if (amountMinor <= 0) return null;
  return { percent: ambassadorBonusPercent(deposit.amountMinor, tiers), amountMinor };
}

/** What one append books for a deposit that earned a bonus, beside the deposit's own wallet event. */
export interface BookedBonus {
  /** The deposit's record, now naming its bonus payment. */
  deposit: PaymentRecordedData;
  /** The AMBASSADOR_BONUS payment: SUCCESS, INTERNAL, BALANCE, from `expense:bonus`, naming its deposit. */
  bonus: PaymentRecordedData;
  /** `AmbassadorBonusCredited` for the depositor's wallet, after the deposit's own event. */
  walletEvents: WalletEvent[];
}

/**
 * Books an earned bonus with the deposit that earned it, in the same decision: the deposit's payment names the
 * bonus, the bonus payment names the deposit, and the wallet is credited from `expense:bonus`. `walletAfterDeposit`
 * is the wallet once the deposit is booked. The deposit must be SUCCESS: money that has not arrived earns nothing yet.
 */
export function bookAmbassadorBonus(
  deposit: PaymentRecordedData,
  earned: EarnedBonus,
  ids: { bonusPaymentId: number; transactionId: string },
  walletAfterDeposit: WalletState,
): BookedBonus {
  assert(deposit.type === 'DEPOSIT' && !deposit.correction, 'only a real-money deposit earns a bonus');
  assert(deposit.status === 'SUCCESS', 'a bonus is booked with a deposit whose money arrived');
  assert(ids.bonusPaymentId !== deposit.paymentId, 'a bonus is a payment of its own');
  const walletEvents = walletDecider.decide(
    {
      type: 'CreditAmbassadorBonus',
      userUuid: deposit.userUuid,
      paymentId: ids.bonusPaymentId,
      depositPaymentId: deposit.paymentId,
      depositAmountMinor: deposit.amountMinor,
      percent: earned.percent,
      amountMinor: earned.amountMinor,
      transactionId: ids.transactionId,
    },
    walletAfterDeposit,
  );
  const bonus: PaymentRecordedData = {
    paymentId: ids.bonusPaymentId,
    userUuid: deposit.userUuid,
    userEmail: deposit.userEmail,
    type: 'AMBASSADOR_BONUS',
    // Nothing was paid from outside: the house credits the balance itself.
    method: 'BALANCE',
    aggregator: 'INTERNAL',
    status: 'SUCCESS',
    amountMinor: earned.amountMinor,
    currency: deposit.currency,
    ...WITHOUT_PERSONAL_FIELDS,
    counterAccount: BONUS_ACCOUNT,
    createdAt: deposit.createdAt,
    bonusForPaymentId: deposit.paymentId,
  };
  return { deposit: { ...deposit, bonusPaymentId: ids.bonusPaymentId }, bonus, walletEvents };
}

/** What a crypto deposit's credit does about its ambassador bonus (docs/adr/0030-deposit-and-buy.md). */
export type CashierCreditBonus =
  /** Nothing to book: not an ambassador, below the lowest tier, or the bonus already matches the total. */
  | { kind: 'none' }
  /**
   * A bonus is due but the command did not lock the stream it goes to (the deposit's bonus, or a spare id for a first
   * one): the caller names the right stream and decides again.
   */
  | { kind: 'stream-needed' }
  | {
      kind: 'booked';
      /** Set when this credit books the deposit's first bonus: the report links the deposit to it. */
      firstBonusPaymentId: number | null;
      /** The bonus payment's events: its `PaymentRecorded`, or `AmbassadorBonusRaised`. */
      bonusEvents: PaymentEvent[];
      /** `AmbassadorBonusCredited` for what this credit adds, after the deposit's own credit. */
      walletEvents: WalletEvent[];
    };

/**
 * The bonus of an ambassador's crypto deposit, which may arrive in parts: the deposit's total so far picks the tier,
 * and each credit books the difference between what that total earns and what the deposit's bonus already holds. The
 * first part records the AMBASSADOR_BONUS payment (SUCCESS, created at this credit); a later part that earns more
 * raises it, so a deposit keeps one bonus payment whose amount is always its tier's share of what arrived, exactly as
 * if everything had come at once. `deposit` is the deposit after this credit's report; `bonus` the payment stream the
 * command locked for the bonus (the existing bonus, or a spare id), null when it locked none.
 */
export function bonusOnCashierCredit(input: {
  deposit: PaymentState;
  role: UserRole;
  tiers: readonly AmbassadorBonusTier[];
  bonus: { paymentId: number; state: PaymentState | null } | null;
  transactionId: string;
  at: string;
  walletAfterDeposit: WalletState;
}): CashierCreditBonus {
  const { deposit, bonus } = input;
  assert(deposit.aggregator === 'CASHIER' && deposit.type === 'DEPOSIT', 'a crypto deposit');
  const totalMinor = deposit.cashier?.amountReceivedMinor ?? 0;
  const earned = earnedAmbassadorBonus(
    { role: input.role, type: deposit.type, correction: deposit.correction, amountMinor: totalMinor },
    input.tiers,
  );
  const linked = deposit.bonusPaymentId ?? null;
  const bookedMinor = linked !== null && bonus?.paymentId === linked ? (bonus.state?.amountMinor ?? 0) : 0;
  if (earned === null || earned.amountMinor <= bookedMinor) return { kind: 'none' };
  if (bonus === null || (linked !== null && bonus.paymentId !== linked) || (linked === null && bonus.state !== null))
    return { kind: 'stream-needed' };
  if (linked === null) {
    const booked = bookAmbassadorBonus(
      { ...deposit, status: 'SUCCESS', amountMinor: totalMinor, createdAt: input.at },
      earned,
      { bonusPaymentId: bonus.paymentId, transactionId: input.transactionId },
      input.walletAfterDeposit,
    );
    return {
      kind: 'booked',
      firstBonusPaymentId: bonus.paymentId,
      bonusEvents: paymentDecider.decide({ type: 'RecordPayment', payment: booked.bonus }, null),
      walletEvents: booked.walletEvents,
    };
  }
  const walletEvents = walletDecider.decide(
    {
      type: 'CreditAmbassadorBonus',
      userUuid: deposit.userUuid,
      paymentId: linked,
      depositPaymentId: deposit.paymentId,
      depositAmountMinor: totalMinor,
      percent: earned.percent,
      amountMinor: earned.amountMinor - bookedMinor,
      transactionId: input.transactionId,
    },
    input.walletAfterDeposit,
  );
  const bonusEvents = paymentDecider.decide(
    {
      type: 'RaiseAmbassadorBonus',
      depositPaymentId: deposit.paymentId,
      depositAmountMinor: totalMinor,
      percent: earned.percent,
      amountMinor: earned.amountMinor,
      raisedAt: input.at,
    },
    bonus.state,
  );
  return { kind: 'booked', firstBonusPaymentId: null, bonusEvents, walletEvents };
}
