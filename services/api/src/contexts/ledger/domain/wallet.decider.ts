import { type CardProvider, type LedgerAccount, minorToAmount, userAccount } from '@kupa/proto';
import { assert, type Decider, DomainError } from '../../../kernel';
import type { WalletEvent } from './ledger.events';
import { netChangeMinor, singlePosting } from './postings';
import { INITIAL_WALLET_STATE, type WalletState } from './wallet.state';

/** Where manual money comes from and goes to: the outside world, or the house's adjustment account for fixes. */
export const MANUAL_ACCOUNT: LedgerAccount = 'world:manual';
export const ADJUSTMENT_ACCOUNT: LedgerAccount = 'expense:adjustment';
/** Where ambassador bonuses come from: the house pays them. */
export const BONUS_ACCOUNT: LedgerAccount = 'expense:bonus';
/** Where crypto deposits come from. */
export const CASHIER_ACCOUNT: LedgerAccount = 'world:cashier';
/** Where crypto deposits paid on the sandbox cashier come from: never mixed with real money (ADR 0055). */
export const SANDBOX_CASHIER_ACCOUNT: LedgerAccount = 'world:sandbox-cashier';

/** The account a crypto deposit's money comes from: the sandbox's own for a sandbox invoice. */
export function cashierCounterAccount(sandbox: boolean): LedgerAccount {
  return sandbox ? SANDBOX_CASHIER_ACCOUNT : CASHIER_ACCOUNT;
}
/** Where card deposits come from. */
export const STRIPE_ACCOUNT: LedgerAccount = 'world:stripe';
/** Where card deposits paid on the sandbox card come from: money nobody paid, never mixed with Stripe's (ADR 0080). */
export const SANDBOX_CARD_ACCOUNT: LedgerAccount = 'world:sandbox-card';

/** The account a card deposit's money comes from: the provider that holds its checkout decides. */
export function cardCounterAccount(provider: CardProvider): LedgerAccount {
  return provider === 'SANDBOX' ? SANDBOX_CARD_ACCOUNT : STRIPE_ACCOUNT;
}

/** Where subscription money goes (a purchase or a renewal) and where a refund of it comes from. */
export const SUBSCRIPTION_REVENUE_ACCOUNT: LedgerAccount = 'revenue:subscriptions';
export const REFUND_ACCOUNT: LedgerAccount = 'expense:refund';
/** Where goodwill credits of bulk operations come from (ADR 0090): the house gives them. */
export const GOODWILL_ACCOUNT: LedgerAccount = 'expense:goodwill';

export function manualCounterAccount(correction: boolean): LedgerAccount {
  return correction ? ADJUSTMENT_ACCOUNT : MANUAL_ACCOUNT;
}

export type WalletCommand =
  | {
      type: 'RecordManualDeposit';
      userUuid: string;
      paymentId: number;
      amountMinor: number;
      correction: boolean;
      reason: string;
      transactionId: string;
    }
  | {
      type: 'RecordWithdrawal';
      userUuid: string;
      paymentId: number;
      amountMinor: number;
      correction: boolean;
      reason: string;
      transactionId: string;
    }
  | {
      type: 'SendTransfer';
      userUuid: string;
      recipientUuid: string;
      transferId: string;
      outPaymentId: number;
      inPaymentId: number;
      amountMinor: number;
      transactionId: string;
    }
  | {
      type: 'ReceiveTransfer';
      userUuid: string;
      senderUuid: string;
      transferId: string;
      outPaymentId: number;
      inPaymentId: number;
      amountMinor: number;
      transactionId: string;
    }
  | {
      /** An ambassador's deposit earned `amountMinor` (its `percent`): booked with the deposit, from `expense:bonus`. */
      type: 'CreditAmbassadorBonus';
      userUuid: string;
      paymentId: number;
      depositPaymentId: number;
      depositAmountMinor: number;
      percent: number;
      amountMinor: number;
      transactionId: string;
    }
  | {
      /** Money that arrived through the crypto cashier, as the provider's API reported it. */
      type: 'CreditCashierDeposit';
      userUuid: string;
      paymentId: number;
      providerPaymentId: string;
      amountMinor: number;
      transactionId: string;
      /** Paid on the sandbox cashier: credited from `world:sandbox-cashier`, not `world:cashier`. */
      sandbox: boolean;
    }
  | {
      /** Money that arrived through the card provider for a checkout (docs/adr/0029-card-checkout.md). */
      type: 'CreditCardDeposit';
      userUuid: string;
      paymentId: number;
      providerPaymentId: string;
      amountMinor: number;
      transactionId: string;
      /** Who holds the checkout: `SANDBOX` is credited from `world:sandbox-card`, `STRIPE` from `world:stripe`. */
      provider: CardProvider;
    }
  | {
      /** A bulk operation's goodwill credit to one client, from `expense:goodwill`. */
      type: 'CreditGoodwill';
      userUuid: string;
      paymentId: number;
      batchId: string;
      amountMinor: number;
      reason: string;
      transactionId: string;
    }
  | {
      /** A subscription's price from the balance: never below zero (`error.insufficient.balance`). */
      type: 'ChargeSubscription';
      userUuid: string;
      paymentId: number;
      subscriptionId: string;
      amountMinor: number;
      transactionId: string;
    }
  | {
      /** A subscription's price back to the balance, from the house's refunds. */
      type: 'RefundSubscription';
      userUuid: string;
      paymentId: number;
      subscriptionId: string;
      amountMinor: number;
      transactionId: string;
    }
  | {
      /**
       * A SUBSCRIPTION_PAYMENT staff refund to the balance (ADR 0092): its money back from the revenue account that
       * received it, as the REFUND payment `paymentId`. Booked as `SubscriptionRefunded`, whose transaction names the
       * source, so `kupa ledger verify` replays it like any other.
       */
      type: 'RefundSubscriptionPayment';
      userUuid: string;
      paymentId: number;
      subscriptionId: string;
      amountMinor: number;
      transactionId: string;
    }
  | {
      /**
       * A manual payment's status change moved its money: `REVERSE` takes it off the books, `REAPPLY` books it
       * again. `userCredited` says which way the payment itself moved money for the user.
       */
      type: 'SettlePaymentStatus';
      userUuid: string;
      paymentId: number;
      status: WalletPaymentStatus;
      effect: 'REVERSE' | 'REAPPLY';
      userCredited: boolean;
      counterAccount: LedgerAccount;
      amountMinor: number;
      transactionId: string;
      confirmNegativeBalance: boolean;
      actorUuid: string;
      /**
       * The ambassador bonus the payment (a deposit) earned: its money follows the deposit's, in the same decision,
       * so a rejected deposit takes its bonus back and a deposit put back on the books brings it back.
       */
      bonus?: { paymentId: number; amountMinor: number; transactionId: string } | null;
    };

type WalletPaymentStatus = Extract<WalletEvent, { type: 'PaymentReversed' }>['data']['status'];

function assertAmount(amountMinor: number): void {
  assert(
    Number.isSafeInteger(amountMinor) && amountMinor > 0,
    `amount ${amountMinor} must be a positive whole number of cents`,
  );
}

function decide(command: WalletCommand, state: WalletState): WalletEvent[] {
  assertAmount(command.amountMinor);
  const user = userAccount(command.userUuid);
  switch (command.type) {
    case 'RecordManualDeposit': {
      const transaction = singlePosting(
        command.transactionId,
        manualCounterAccount(command.correction),
        user,
        command.amountMinor,
      );
      const { userUuid, paymentId, amountMinor } = command;
      if (command.correction) {
        return [
          {
            type: 'BalanceCorrected',
            data: { userUuid, paymentId, action: 'DEPOSIT', amountMinor, reason: command.reason, transaction },
          },
        ];
      }
      return [{ type: 'ManualDepositRecorded', data: { userUuid, paymentId, amountMinor, transaction } }];
    }
    case 'RecordWithdrawal': {
      if (command.amountMinor > state.balanceMinor) throw new DomainError('error.withdrawal.exceeds.balance');
      const transaction = singlePosting(
        command.transactionId,
        user,
        manualCounterAccount(command.correction),
        command.amountMinor,
      );
      const { userUuid, paymentId, amountMinor } = command;
      if (command.correction) {
        return [
          {
            type: 'BalanceCorrected',
            data: { userUuid, paymentId, action: 'WITHDRAW', amountMinor, reason: command.reason, transaction },
          },
        ];
      }
      return [{ type: 'WithdrawalRecorded', data: { userUuid, paymentId, amountMinor, transaction } }];
    }
    case 'SendTransfer': {
      if (command.recipientUuid === command.userUuid) throw new DomainError('error.transfer.to.self');
      if (command.amountMinor > state.balanceMinor) throw new DomainError('error.insufficient.balance');
      const transaction = singlePosting(
        command.transactionId,
        user,
        userAccount(command.recipientUuid),
        command.amountMinor,
      );
      const { userUuid, recipientUuid, transferId, outPaymentId, inPaymentId, amountMinor } = command;
      return [
        {
          type: 'TransferSent',
          data: { userUuid, recipientUuid, transferId, outPaymentId, inPaymentId, amountMinor, transaction },
        },
      ];
    }
    case 'ReceiveTransfer': {
      assert(command.senderUuid !== command.userUuid, 'a transfer never reaches its own sender');
      const { userUuid, senderUuid, transferId, outPaymentId, inPaymentId, amountMinor, transactionId } = command;
      return [
        {
          type: 'TransferReceived',
          data: { userUuid, senderUuid, transferId, outPaymentId, inPaymentId, amountMinor, transactionId },
        },
      ];
    }
    case 'CreditAmbassadorBonus': {
      assert(
        Number.isInteger(command.percent) && command.percent > 0 && command.percent <= 100,
        `bonus percent ${command.percent} must be a whole percentage`,
      );
      assert(
        command.amountMinor * 100 <= command.depositAmountMinor * command.percent,
        'a bonus never exceeds its percentage of the deposit',
      );
      const transaction = singlePosting(command.transactionId, BONUS_ACCOUNT, user, command.amountMinor);
      const { userUuid, paymentId, depositPaymentId, depositAmountMinor, percent, amountMinor } = command;
      return [
        {
          type: 'AmbassadorBonusCredited',
          data: { userUuid, paymentId, depositPaymentId, depositAmountMinor, percent, amountMinor, transaction },
        },
      ];
    }
    case 'CreditCashierDeposit': {
      const { userUuid, paymentId, providerPaymentId, amountMinor } = command;
      const source = cashierCounterAccount(command.sandbox);
      const transaction = singlePosting(command.transactionId, source, user, amountMinor);
      return [
        {
          type: 'CashierDepositCredited',
          data: { userUuid, paymentId, providerPaymentId, amountMinor, transaction },
        },
      ];
    }
    case 'CreditCardDeposit': {
      const { userUuid, paymentId, providerPaymentId, amountMinor } = command;
      const transaction = singlePosting(command.transactionId, cardCounterAccount(command.provider), user, amountMinor);
      return [
        { type: 'CardDepositCredited', data: { userUuid, paymentId, providerPaymentId, amountMinor, transaction } },
      ];
    }
    case 'CreditGoodwill': {
      const { userUuid, paymentId, batchId, amountMinor, reason } = command;
      const transaction = singlePosting(command.transactionId, GOODWILL_ACCOUNT, user, amountMinor);
      return [{ type: 'GoodwillCredited', data: { userUuid, paymentId, batchId, amountMinor, reason, transaction } }];
    }
    case 'ChargeSubscription': {
      if (command.amountMinor > state.balanceMinor) throw new DomainError('error.insufficient.balance');
      const { userUuid, paymentId, subscriptionId, amountMinor } = command;
      const transaction = singlePosting(command.transactionId, user, SUBSCRIPTION_REVENUE_ACCOUNT, amountMinor);
      return [{ type: 'SubscriptionCharged', data: { userUuid, paymentId, subscriptionId, amountMinor, transaction } }];
    }
    case 'RefundSubscription': {
      const { userUuid, paymentId, subscriptionId, amountMinor } = command;
      const transaction = singlePosting(command.transactionId, REFUND_ACCOUNT, user, amountMinor);
      return [
        { type: 'SubscriptionRefunded', data: { userUuid, paymentId, subscriptionId, amountMinor, transaction } },
      ];
    }
    case 'RefundSubscriptionPayment': {
      const { userUuid, paymentId, subscriptionId, amountMinor } = command;
      const transaction = singlePosting(command.transactionId, SUBSCRIPTION_REVENUE_ACCOUNT, user, amountMinor);
      return [
        { type: 'SubscriptionRefunded', data: { userUuid, paymentId, subscriptionId, amountMinor, transaction } },
      ];
    }
    case 'SettlePaymentStatus': {
      // Reversing a credit, or booking a debit again, takes money from the user; the other two give it back.
      const takesFromUser = command.userCredited === (command.effect === 'REVERSE');
      const settle = (paymentId: number, counterAccount: LedgerAccount, amountMinor: number, transactionId: string) => {
        assertAmount(amountMinor);
        const transaction = takesFromUser
          ? singlePosting(transactionId, user, counterAccount, amountMinor)
          : singlePosting(transactionId, counterAccount, user, amountMinor);
        return { userUuid: command.userUuid, paymentId, status: command.status, amountMinor, transaction };
      };
      const moves = [settle(command.paymentId, command.counterAccount, command.amountMinor, command.transactionId)];
      if (command.bonus) {
        assert(command.userCredited, 'only a deposit, which credits the user, carries a bonus');
        const { paymentId, amountMinor, transactionId } = command.bonus;
        moves.push(settle(paymentId, BONUS_ACCOUNT, amountMinor, transactionId));
      }
      // Each event records the confirmation when it leaves the balance below zero; the refusal names the balance
      // after all of them, the one the staff member would confirm.
      let balanceMinor = state.balanceMinor;
      const events: WalletEvent[] = moves.map((move) => {
        balanceMinor += netChangeMinor(move.transaction, user);
        const data = { ...move, overdraftConfirmedBy: balanceMinor < 0 ? command.actorUuid : null };
        return command.effect === 'REVERSE' ? { type: 'PaymentReversed', data } : { type: 'PaymentReapplied', data };
      });
      if (balanceMinor < 0 && !command.confirmNegativeBalance) {
        throw new DomainError('error.balance.negative.confirmation.required', {
          resultingBalance: minorToAmount(balanceMinor),
        });
      }
      return events;
    }
  }
}

/** The change an event makes to its own wallet's balance. */
export function walletBalanceChangeMinor(event: WalletEvent): number {
  if (event.type === 'TransferReceived') return event.data.amountMinor;
  return netChangeMinor(event.data.transaction, userAccount(event.data.userUuid));
}

function evolve(state: WalletState, event: WalletEvent): WalletState {
  return { balanceMinor: state.balanceMinor + walletBalanceChangeMinor(event) };
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  decide,
  evolve,
  initialState: () => ({ ...INITIAL_WALLET_STATE }),
};
