import {
  type AmbassadorBonusTier,
  ambassadorBonusMinor,
  ambassadorBonusPercent,
  type PaymentRecordedData,
  type PaymentType,
  type UserRole,
} from '@kupa/proto';
import { assert } from '../../../kernel';
import type { WalletEvent } from './ledger.events';
import { BONUS_ACCOUNT, walletDecider } from './wallet.decider';
import type { WalletState } from './wallet.state';

/** A bonus a deposit earned: the tier's percent and the cents it gives. */
export interface EarnedBonus {
  percent: number;
  amountMinor: number;
}

/**
 * What a deposit earns (docs/product.md, Referrals and bonuses): a bonus only on real money an AMBASSADOR paid in, a
 * DEPOSIT that is not a staff balance correction, and only from the lowest tier up. Null otherwise: a deposit never
 * earns a bonus of zero, so no empty bonus payment is ever booked. Every way money arrives (the staff's manual deposit
 * today, crypto and card deposits later) asks this before it names its streams, since a bonus is one more payment.
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
    comment: null,
    publicNote: null,
    counterAccount: BONUS_ACCOUNT,
    correction: false,
    transferId: null,
    senderProfileId: null,
    recipientProfileId: null,
    discountPercent: 0,
    createdAt: deposit.createdAt,
    bonusPaymentId: null,
    bonusForPaymentId: deposit.paymentId,
  };
  return { deposit: { ...deposit, bonusPaymentId: ids.bonusPaymentId }, bonus, walletEvents };
}
