import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import type { WalletEvent } from './ledger.events';
import { type WalletCommand, walletDecider } from './wallet.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const omer = '22222222-2222-4222-8222-222222222222';
const admin = '33333333-3333-4333-8333-333333333333';
const tx = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const deposited = (amountMinor: number, paymentId = 1): WalletEvent => ({
  type: 'ManualDepositRecorded',
  data: {
    userUuid: dana,
    paymentId,
    amountMinor,
    transaction: {
      transactionId: tx(paymentId),
      postings: [{ source: 'world:manual', destination: `user:${dana}`, amountMinor }],
    },
  },
});

const { given } = deciderSpec(walletDecider);

const deposit = (amountMinor: number, correction = false): WalletCommand => ({
  type: 'RecordManualDeposit',
  userUuid: dana,
  paymentId: 9,
  amountMinor,
  correction,
  reason: 'wire 42',
  transactionId: tx(9),
});
const withdraw = (amountMinor: number, correction = false): WalletCommand => ({
  type: 'RecordWithdrawal',
  userUuid: dana,
  paymentId: 9,
  amountMinor,
  correction,
  reason: 'payout',
  transactionId: tx(9),
});
const send = (amountMinor: number, recipientUuid = omer): WalletCommand => ({
  type: 'SendTransfer',
  userUuid: dana,
  recipientUuid,
  transferId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  outPaymentId: 10,
  inPaymentId: 11,
  amountMinor,
  transactionId: tx(10),
});
const settle = (
  effect: 'REVERSE' | 'REAPPLY',
  userCredited: boolean,
  amountMinor: number,
  confirmNegativeBalance = false,
): WalletCommand => ({
  type: 'SettlePaymentStatus',
  userUuid: dana,
  paymentId: 1,
  status: effect === 'REVERSE' ? 'FAILED' : 'SUCCESS',
  effect,
  userCredited,
  counterAccount: 'world:manual',
  amountMinor,
  transactionId: tx(20),
  confirmNegativeBalance,
  actorUuid: admin,
});

describe('wallet decider', () => {
  describe('manual deposit', () => {
    it('books world:manual → user', () =>
      given([])
        .when(deposit(1250))
        .then([
          {
            type: 'ManualDepositRecorded',
            data: {
              userUuid: dana,
              paymentId: 9,
              amountMinor: 1250,
              transaction: {
                transactionId: tx(9),
                postings: [{ source: 'world:manual', destination: `user:${dana}`, amountMinor: 1250 }],
              },
            },
          },
        ]));

    it('books a correction against expense:adjustment with its reason', () =>
      given([])
        .when(deposit(500, true))
        .then([
          {
            type: 'BalanceCorrected',
            data: {
              userUuid: dana,
              paymentId: 9,
              action: 'DEPOSIT',
              amountMinor: 500,
              reason: 'wire 42',
              transaction: {
                transactionId: tx(9),
                postings: [{ source: 'expense:adjustment', destination: `user:${dana}`, amountMinor: 500 }],
              },
            },
          },
        ]));

    it('treats a zero or fractional amount as a bug, not a rule', () => {
      expect(() => walletDecider.decide(deposit(0), walletDecider.initialState())).toThrow(/Assertion failed/);
      expect(() => walletDecider.decide(deposit(1.5), walletDecider.initialState())).toThrow(/Assertion failed/);
    });
  });

  describe('crypto deposit credit', () => {
    const credit = (sandbox: boolean): WalletCommand => ({
      type: 'CreditCashierDeposit',
      userUuid: dana,
      paymentId: 12,
      providerPaymentId: '5077125051',
      amountMinor: 4000,
      transactionId: tx(12),
      sandbox,
    });
    const credited = (source: string): WalletEvent => ({
      type: 'CashierDepositCredited',
      data: {
        userUuid: dana,
        paymentId: 12,
        providerPaymentId: '5077125051',
        amountMinor: 4000,
        transaction: { transactionId: tx(12), postings: [{ source, destination: `user:${dana}`, amountMinor: 4000 }] },
      } as Extract<WalletEvent, { type: 'CashierDepositCredited' }>['data'],
    });

    it('books money from the real cashier against world:cashier', () =>
      given([])
        .when(credit(false))
        .then([credited('world:cashier')]));

    it('books sandbox money against world:sandbox-cashier, never mixed with real money (issue 27)', () =>
      given([])
        .when(credit(true))
        .then([credited('world:sandbox-cashier')]));
  });

  describe('card deposit credit (docs/adr/0080-sandbox-card-checkout.md)', () => {
    const credit = (provider: 'STRIPE' | 'SANDBOX'): WalletCommand => ({
      type: 'CreditCardDeposit',
      userUuid: dana,
      paymentId: 13,
      providerPaymentId: 'pi_1',
      amountMinor: 2500,
      transactionId: tx(13),
      provider,
    });
    const credited = (source: string): WalletEvent => ({
      type: 'CardDepositCredited',
      data: {
        userUuid: dana,
        paymentId: 13,
        providerPaymentId: 'pi_1',
        amountMinor: 2500,
        transaction: { transactionId: tx(13), postings: [{ source, destination: `user:${dana}`, amountMinor: 2500 }] },
      } as Extract<WalletEvent, { type: 'CardDepositCredited' }>['data'],
    });

    it('given a checkout Stripe holds, when it is credited, then the money comes from world:stripe', () =>
      given([])
        .when(credit('STRIPE'))
        .then([credited('world:stripe')]));

    it('given a checkout the sandbox card holds, when it is credited, then the money comes from world:sandbox-card', () =>
      given([])
        .when(credit('SANDBOX'))
        .then([credited('world:sandbox-card')]));
  });

  describe('withdrawal', () => {
    it('pays out up to the whole balance', () =>
      given([deposited(1000)])
        .when(withdraw(1000))
        .then([
          {
            type: 'WithdrawalRecorded',
            data: {
              userUuid: dana,
              paymentId: 9,
              amountMinor: 1000,
              transaction: {
                transactionId: tx(9),
                postings: [{ source: `user:${dana}`, destination: 'world:manual', amountMinor: 1000 }],
              },
            },
          },
        ]));

    it('refuses a cent more than the balance, corrections included', () => {
      given([deposited(1000)])
        .when(withdraw(1001))
        .thenRejects('error.withdrawal.exceeds.balance');
      given([deposited(1000)])
        .when(withdraw(1001, true))
        .thenRejects('error.withdrawal.exceeds.balance');
    });

    it('books a withdrawal correction to expense:adjustment', () => {
      const [event] = walletDecider.decide(withdraw(300, true), fold(walletDecider, [deposited(1000)]));
      expect(event).toMatchObject({ type: 'BalanceCorrected', data: { action: 'WITHDRAW' } });
      expect(walletDecider.evolve({ balanceMinor: 1000 }, event)).toEqual({ balanceMinor: 700 });
    });
  });

  describe('transfer', () => {
    it('sends the whole transaction user → user from the sender', () =>
      given([deposited(2000)])
        .when(send(2000))
        .then([
          {
            type: 'TransferSent',
            data: {
              userUuid: dana,
              recipientUuid: omer,
              transferId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
              outPaymentId: 10,
              inPaymentId: 11,
              amountMinor: 2000,
              transaction: {
                transactionId: tx(10),
                postings: [{ source: `user:${dana}`, destination: `user:${omer}`, amountMinor: 2000 }],
              },
            },
          },
        ]));

    it('refuses more than the balance and transfers to oneself', () => {
      given([deposited(2000)])
        .when(send(2001))
        .thenRejects('error.insufficient.balance');
      given([]).when(send(1)).thenRejects('error.insufficient.balance');
      given([deposited(2000)])
        .when(send(100, dana))
        .thenRejects('error.transfer.to.self');
    });

    it('credits the recipient by the transaction id only, without booking it again', () => {
      const command: WalletCommand = {
        type: 'ReceiveTransfer',
        userUuid: omer,
        senderUuid: dana,
        transferId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        outPaymentId: 10,
        inPaymentId: 11,
        amountMinor: 2000,
        transactionId: tx(10),
      };
      const events = walletDecider.decide(command, walletDecider.initialState());
      expect(events).toEqual([
        { type: 'TransferReceived', data: expect.not.objectContaining({ transaction: expect.anything() }) },
      ]);
      expect(fold(walletDecider, events)).toEqual({ balanceMinor: 2000 });
      // A receipt on the sender's own wallet can only come from a bug upstream (the API refuses it first).
      expect(() => walletDecider.decide({ ...command, senderUuid: omer }, walletDecider.initialState())).toThrow(
        /Assertion failed/,
      );
    });
  });

  describe('status change of a manual payment', () => {
    it('reverses a deposit that the balance still covers, without an override', () =>
      given([deposited(1000)])
        .when(settle('REVERSE', true, 1000))
        .then([
          {
            type: 'PaymentReversed',
            data: {
              userUuid: dana,
              paymentId: 1,
              status: 'FAILED',
              amountMinor: 1000,
              transaction: {
                transactionId: tx(20),
                postings: [{ source: `user:${dana}`, destination: 'world:manual', amountMinor: 1000 }],
              },
              overdraftConfirmedBy: null,
            },
          },
        ]));

    it('asks for confirmation, in dollars, before a reversal leaves the balance negative', () =>
      given([deposited(1000), deposited(250, 2)])
        .when(settle('REVERSE', true, 2000))
        .thenRejects('error.balance.negative.confirmation.required', { resultingBalance: -7.5 }));

    it('records who confirmed the negative balance', () => {
      const [event] = walletDecider.decide(settle('REVERSE', true, 2000, true), fold(walletDecider, [deposited(1000)]));
      expect(event).toMatchObject({ type: 'PaymentReversed', data: { overdraftConfirmedBy: admin } });
      expect(walletDecider.evolve({ balanceMinor: 1000 }, event)).toEqual({ balanceMinor: -1000 });
    });

    it('books a payment again, and reversing a withdrawal gives the money back', () => {
      const [reapplied] = walletDecider.decide(settle('REAPPLY', true, 400), walletDecider.initialState());
      expect(reapplied).toMatchObject({
        type: 'PaymentReapplied',
        data: {
          transaction: { postings: [{ source: 'world:manual', destination: `user:${dana}`, amountMinor: 400 }] },
        },
      });
      const [refunded] = walletDecider.decide(settle('REVERSE', false, 400), walletDecider.initialState());
      expect(walletDecider.evolve({ balanceMinor: 0 }, refunded)).toEqual({ balanceMinor: 400 });
    });

    it('needs confirmation to book a withdrawal again beyond the balance', () =>
      given([deposited(100)])
        .when(settle('REAPPLY', false, 400))
        .thenRejects('error.balance.negative.confirmation.required', {
          resultingBalance: -3,
        }));
  });

  describe('subscription charge and refund', () => {
    const subscriptionId = '55555555-5555-4555-8555-555555555555';
    const charge = (amountMinor: number): WalletCommand => ({
      type: 'ChargeSubscription',
      userUuid: dana,
      paymentId: 30,
      subscriptionId,
      amountMinor,
      transactionId: tx(30),
    });

    it('charges up to the whole balance, user → revenue:subscriptions', () =>
      given([deposited(1000)])
        .when(charge(1000))
        .then([
          {
            type: 'SubscriptionCharged',
            data: {
              userUuid: dana,
              paymentId: 30,
              subscriptionId,
              amountMinor: 1000,
              transaction: {
                transactionId: tx(30),
                postings: [{ source: `user:${dana}`, destination: 'revenue:subscriptions', amountMinor: 1000 }],
              },
            },
          },
        ]));

    it('refuses a cent more than the balance', () =>
      given([deposited(1000)])
        .when(charge(1001))
        .thenRejects('error.insufficient.balance'));

    it('refunds from expense:refund to the user, whatever the balance', () => {
      const [refunded] = walletDecider.decide(
        {
          type: 'RefundSubscription',
          userUuid: dana,
          paymentId: 31,
          subscriptionId,
          amountMinor: 700,
          transactionId: tx(31),
        },
        walletDecider.initialState(),
      );
      expect(refunded).toEqual({
        type: 'SubscriptionRefunded',
        data: {
          userUuid: dana,
          paymentId: 31,
          subscriptionId,
          amountMinor: 700,
          transaction: {
            transactionId: tx(31),
            postings: [{ source: 'expense:refund', destination: `user:${dana}`, amountMinor: 700 }],
          },
        },
      });
      expect(walletDecider.evolve({ balanceMinor: 0 }, refunded)).toEqual({ balanceMinor: 700 });
    });
  });

  // A staff member's status change may leave the balance below zero only with their confirmation; these pin the
  // exact cent where that starts, on both the refusal and the recorded confirmation (issue 29: a mutant that let a
  // 1-cent overdraft through unconfirmed survived the cases above).
  describe('status change at the exact edge of a negative balance', () => {
    const reapplied = (amountMinor: number, overdraftConfirmedBy: string | null): WalletEvent => ({
      type: 'PaymentReapplied',
      data: {
        userUuid: dana,
        paymentId: 1,
        status: 'SUCCESS',
        amountMinor,
        transaction: {
          transactionId: tx(20),
          postings: [{ source: `user:${dana}`, destination: 'world:manual', amountMinor }],
        },
        overdraftConfirmedBy,
      },
    });

    it('books a withdrawal again down to exactly zero without asking, and records no override', () =>
      given([deposited(500)])
        .when(settle('REAPPLY', false, 500))
        .then([reapplied(500, null)]));

    it('refuses a cent below zero without confirmation, naming the balance it would leave', () =>
      given([deposited(500)])
        .when(settle('REAPPLY', false, 501))
        .thenRejects('error.balance.negative.confirmation.required', { resultingBalance: -0.01 }));

    it('books a cent below zero once confirmed, recording who confirmed it', () => {
      given([deposited(500)])
        .when(settle('REAPPLY', false, 501, true))
        .then([reapplied(501, admin)]);
      const history = [deposited(500), reapplied(501, admin)];
      expect(fold(walletDecider, history)).toEqual({ balanceMinor: -1 });
    });

    it('asks the same of a reversal that takes the balance to minus one cent, and not of one that ends at zero', () => {
      given([deposited(500)])
        .when(settle('REVERSE', true, 501))
        .thenRejects('error.balance.negative.confirmation.required', { resultingBalance: -0.01 });
      const [atZero] = walletDecider.decide(settle('REVERSE', true, 500), fold(walletDecider, [deposited(500)]));
      expect(atZero).toMatchObject({ type: 'PaymentReversed', data: { overdraftConfirmedBy: null } });
    });
  });
});
