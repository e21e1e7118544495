import { DEFAULT_AMBASSADOR_BONUS_TIERS, type PaymentRecordedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { bookAmbassadorBonus, earnedAmbassadorBonus } from './ambassador-bonus';
import type { PaymentEvent, WalletEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import { type WalletCommand, walletDecider } from './wallet.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const admin = '33333333-3333-4333-8333-333333333333';
const tx = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = '2026-03-01T10:00:00.000Z';
const tiers = DEFAULT_AMBASSADOR_BONUS_TIERS;

const depositRecord = (amountMinor: number, overrides: Partial<PaymentRecordedData> = {}): PaymentRecordedData => ({
  paymentId: 7,
  userUuid: dana,
  userEmail: 'dana@example.com',
  type: 'DEPOSIT',
  method: 'MANUAL_TRANSFER',
  aggregator: 'MANUAL',
  status: 'SUCCESS',
  amountMinor,
  currency: 'USD',
  comment: 'wire 42',
  publicNote: null,
  counterAccount: 'world:manual',
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  discountPercent: 0,
  createdAt: at,
  ...overrides,
});

const deposited = (amountMinor: number, paymentId = 7): WalletEvent => ({
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

const bonusCredited = (amountMinor: number, depositAmountMinor: number, percent: number): WalletEvent => ({
  type: 'AmbassadorBonusCredited',
  data: {
    userUuid: dana,
    paymentId: 8,
    depositPaymentId: 7,
    depositAmountMinor,
    percent,
    amountMinor,
    transaction: {
      transactionId: tx(8),
      postings: [{ source: 'expense:bonus', destination: `user:${dana}`, amountMinor }],
    },
  },
});

const withdrawn = (amountMinor: number): WalletEvent => ({
  type: 'WithdrawalRecorded',
  data: {
    userUuid: dana,
    paymentId: 9,
    amountMinor,
    transaction: {
      transactionId: tx(9),
      postings: [{ source: `user:${dana}`, destination: 'world:manual', amountMinor }],
    },
  },
});

const settleDepositWithBonus = (
  effect: 'REVERSE' | 'REAPPLY',
  bonusMinor: number,
  confirmNegativeBalance = false,
): WalletCommand => ({
  type: 'SettlePaymentStatus',
  userUuid: dana,
  paymentId: 7,
  status: effect === 'REVERSE' ? 'REJECTED' : 'SUCCESS',
  effect,
  userCredited: true,
  counterAccount: 'world:manual',
  amountMinor: 10_000,
  transactionId: tx(20),
  confirmNegativeBalance,
  actorUuid: admin,
  bonus: { paymentId: 8, amountMinor: bonusMinor, transactionId: tx(21) },
});

const wallet = deciderSpec(walletDecider);
const payment = deciderSpec(paymentDecider);

describe('ambassador bonus', () => {
  describe('what a deposit earns', () => {
    it("an ambassador's real-money deposit earns its tier's percent, rounded down to whole cents", () => {
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 5_000 }, tiers),
      ).toEqual({ percent: 5, amountMinor: 250 });
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 20_001 }, tiers),
      ).toEqual({ percent: 10, amountMinor: 2_000 });
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 250_000 }, tiers),
      ).toEqual({ percent: 25, amountMinor: 62_500 });
    });

    it('earns nothing, not a zero bonus, below the lowest tier', () => {
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 4_999 }, tiers),
      ).toBeNull();
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 5_000 }, []),
      ).toBeNull();
    });

    it('never rewards a client, a balance correction or a withdrawal', () => {
      expect(
        earnedAmbassadorBonus({ role: 'CLIENT', type: 'DEPOSIT', correction: false, amountMinor: 100_000 }, tiers),
      ).toBeNull();
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'DEPOSIT', correction: true, amountMinor: 100_000 }, tiers),
      ).toBeNull();
      expect(
        earnedAmbassadorBonus({ role: 'AMBASSADOR', type: 'WITHDRAW', correction: false, amountMinor: 100_000 }, tiers),
      ).toBeNull();
    });

    it('follows the table it is given', () => {
      const configured = [{ minDepositMinor: 1_000, percent: 50 }];
      expect(
        earnedAmbassadorBonus(
          { role: 'AMBASSADOR', type: 'DEPOSIT', correction: false, amountMinor: 1_000 },
          configured,
        ),
      ).toEqual({ percent: 50, amountMinor: 500 });
    });
  });

  describe('booking it with the deposit', () => {
    it('credits the wallet from expense:bonus, after the deposit', () =>
      wallet
        .given([deposited(20_000)])
        .when(
          (state) =>
            bookAmbassadorBonus(
              depositRecord(20_000),
              { percent: 10, amountMinor: 2_000 },
              { bonusPaymentId: 8, transactionId: tx(8) },
              state,
            ).walletEvents,
        )
        .then([bonusCredited(2_000, 20_000, 10)]));

    it('records a SUCCESS bonus payment, INTERNAL from the balance, pointing at its deposit, which names it back', () => {
      const booked = bookAmbassadorBonus(
        depositRecord(20_000),
        { percent: 10, amountMinor: 2_000 },
        { bonusPaymentId: 8, transactionId: tx(8) },
        walletDecider.initialState(),
      );
      expect(booked.deposit).toEqual({ ...depositRecord(20_000), bonusPaymentId: 8 });
      expect(booked.bonus).toMatchObject({
        paymentId: 8,
        userUuid: dana,
        type: 'AMBASSADOR_BONUS',
        status: 'SUCCESS',
        aggregator: 'INTERNAL',
        method: 'BALANCE',
        amountMinor: 2_000,
        counterAccount: 'expense:bonus',
        correction: false,
        bonusPaymentId: null,
        bonusForPaymentId: 7,
        createdAt: at,
      });
      expect(walletDecider.evolve({ balanceMinor: 20_000 }, booked.walletEvents[0])).toEqual({ balanceMinor: 22_000 });
    });

    it('treats a bonus on a correction, on money that has not arrived, or above its percent as a bug', () => {
      const earned = { percent: 10, amountMinor: 2_000 };
      const ids = { bonusPaymentId: 8, transactionId: tx(8) };
      const state = walletDecider.initialState();
      expect(() => bookAmbassadorBonus(depositRecord(20_000, { correction: true }), earned, ids, state)).toThrow(
        /Assertion failed/,
      );
      expect(() => bookAmbassadorBonus(depositRecord(20_000, { status: 'PENDING' }), earned, ids, state)).toThrow(
        /Assertion failed/,
      );
      expect(() => bookAmbassadorBonus(depositRecord(20_000), { percent: 10, amountMinor: 2_001 }, ids, state)).toThrow(
        /Assertion failed/,
      );
    });
  });

  describe("when staff change the deposit's status", () => {
    it('a rejected deposit takes its bonus back in the same decision', () =>
      wallet
        .given([deposited(10_000), bonusCredited(500, 10_000, 5)])
        .when(settleDepositWithBonus('REVERSE', 500))
        .then([
          {
            type: 'PaymentReversed',
            data: {
              userUuid: dana,
              paymentId: 7,
              status: 'REJECTED',
              amountMinor: 10_000,
              transaction: {
                transactionId: tx(20),
                postings: [{ source: `user:${dana}`, destination: 'world:manual', amountMinor: 10_000 }],
              },
              overdraftConfirmedBy: null,
            },
          },
          {
            type: 'PaymentReversed',
            data: {
              userUuid: dana,
              paymentId: 8,
              status: 'REJECTED',
              amountMinor: 500,
              transaction: {
                transactionId: tx(21),
                postings: [{ source: `user:${dana}`, destination: 'expense:bonus', amountMinor: 500 }],
              },
              overdraftConfirmedBy: null,
            },
          },
        ]));

    it('asks to confirm the balance after both reversals when the money is already spent', () =>
      wallet
        .given([deposited(10_000), bonusCredited(500, 10_000, 5), withdrawn(10_000)])
        .when(settleDepositWithBonus('REVERSE', 500))
        .thenRejects('error.balance.negative.confirmation.required', { resultingBalance: -100 }));

    it('records the confirmation on each reversal that leaves the balance below zero', () => {
      const history = [deposited(10_000), bonusCredited(500, 10_000, 5), withdrawn(10_000)];
      const events = walletDecider.decide(settleDepositWithBonus('REVERSE', 500, true), fold(walletDecider, history));
      expect(
        events.map((event) => (event.data as { overdraftConfirmedBy: string | null }).overdraftConfirmedBy),
      ).toEqual([admin, admin]);
      expect(fold(walletDecider, [...history, ...events])).toEqual({ balanceMinor: -10_000 });
    });

    it('a deposit put back on the books brings its bonus back', () => {
      const history = [deposited(10_000), bonusCredited(500, 10_000, 5)];
      const reversed = walletDecider.decide(settleDepositWithBonus('REVERSE', 500), fold(walletDecider, history));
      const reapplied = walletDecider.decide(
        settleDepositWithBonus('REAPPLY', 500),
        fold(walletDecider, [...history, ...reversed]),
      );
      expect(reapplied.map((event) => event.type)).toEqual(['PaymentReapplied', 'PaymentReapplied']);
      expect(reapplied[1]).toMatchObject({
        data: {
          paymentId: 8,
          transaction: { postings: [{ source: 'expense:bonus', destination: `user:${dana}`, amountMinor: 500 }] },
        },
      });
      expect(fold(walletDecider, [...history, ...reversed, ...reapplied])).toEqual({ balanceMinor: 10_500 });
    });

    const bonusRecorded: PaymentEvent = {
      type: 'PaymentRecorded',
      data: {
        ...depositRecord(500),
        paymentId: 8,
        type: 'AMBASSADOR_BONUS',
        method: 'BALANCE',
        aggregator: 'INTERNAL',
        comment: null,
        counterAccount: 'expense:bonus',
        bonusForPaymentId: 7,
      },
    };

    it("the bonus payment takes its deposit's status", () =>
      payment
        .given([bonusRecorded])
        .when({ type: 'FollowDepositStatus', depositPaymentId: 7, status: 'REJECTED', changedAt: at })
        .then([
          {
            type: 'PaymentStatusChanged',
            data: {
              paymentId: 8,
              userUuid: dana,
              previousStatus: 'SUCCESS',
              status: 'REJECTED',
              changedAt: at,
              publicNote: null,
            },
          },
        ]));

    it('staff never change a bonus by itself', () =>
      payment
        .given([bonusRecorded])
        .when({ type: 'ChangePaymentStatus', paymentId: 8, status: 'REJECTED', changedAt: at, publicNote: null })
        .thenRejects('error.payment.status.manual.only'));

    it('a payment that is not the bonus of that deposit never follows it', () => {
      const state = fold(paymentDecider, [bonusRecorded]);
      expect(() =>
        paymentDecider.decide(
          { type: 'FollowDepositStatus', depositPaymentId: 6, status: 'REJECTED', changedAt: at },
          state,
        ),
      ).toThrow(/Assertion failed/);
    });
  });
});
