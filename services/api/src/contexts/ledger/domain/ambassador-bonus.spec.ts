import { DEFAULT_AMBASSADOR_BONUS_TIERS, type PaymentRecordedData } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { bonusOnCashierCredit, bookAmbassadorBonus, earnedAmbassadorBonus } from './ambassador-bonus';
import type { PaymentEvent, WalletEvent } from './ledger.events';
import { type CashierReport, paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';
import type { PaymentState } from './payment.state';
import { type WalletCommand, walletDecider } from './wallet.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const admin = '33333333-3333-4333-8333-333333333333';
const tx = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = '2026-03-01T10:00:00.000Z';
const tiers = DEFAULT_AMBASSADOR_BONUS_TIERS;

const depositRecord = (amountMinor: number, overrides: Partial<PaymentRecordedData> = {}): PaymentRecordedData =>
  recordedPayment({ amountMinor, comment: 'wire 42', createdAt: at, ...overrides });

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

  describe('on a crypto deposit that arrives in parts', () => {
    const later = '2026-03-02T10:00:00.000Z';
    // 300 dollars asked in BTC at the invoice's rate: 0.003 coins.
    const opened: PaymentEvent[] = [
      {
        type: 'PaymentRecorded',
        data: {
          ...depositRecord(30_000, {
            method: 'CRYPTO_BTC',
            aggregator: 'CASHIER',
            status: 'PENDING',
            comment: null,
            counterAccount: 'world:cashier',
          }),
          bonusPaymentId: null,
          bonusForPaymentId: null,
        },
      },
      {
        type: 'CashierInvoiceOpened',
        data: {
          paymentId: 7,
          userUuid: dana,
          provider: 'SANDBOX',
          invoiceId: '1000000001',
          invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/1000000001',
          payCurrency: 'btc',
          amountAskedMinor: 30_000,
          openedAt: at,
        },
      },
    ];
    const report = (actuallyPaid: string, providerStatus: CashierReport['providerStatus']): CashierReport => ({
      providerPaymentId: '5550000001',
      providerStatus,
      payAmount: '0.003',
      actuallyPaid,
    });
    /** The deposit after a report, as the cashier adapter hands it over. */
    const afterReport = (history: PaymentEvent[], reported: CashierReport, bonusPaymentId: number | null = null) => {
      const events = paymentDecider.decide(
        {
          type: 'ApplyCashierReport',
          paymentId: 7,
          report: reported,
          source: 'IPN',
          reportedAt: later,
          timeOutIfPending: false,
          bonusPaymentId,
        },
        fold(paymentDecider, history),
      );
      return { events, state: fold(paymentDecider, [...history, ...events]) as PaymentState };
    };
    const credit = (
      deposit: PaymentState,
      bonus: { paymentId: number; state: PaymentState | null } | null,
      role: 'AMBASSADOR' | 'CLIENT' = 'AMBASSADOR',
    ) =>
      bonusOnCashierCredit({
        deposit,
        role,
        tiers,
        bonus,
        transactionId: tx(30),
        at: later,
        walletAfterDeposit: { balanceMinor: deposit.cashier?.amountReceivedMinor ?? 0 },
      });

    /** The bonus payment's events when a deposit (its report not yet naming a bonus) books its first one as 8. */
    const firstBonusEvents = (deposit: PaymentState): PaymentEvent[] => {
      const booked = credit(deposit, { paymentId: 8, state: null });
      return booked.kind === 'booked' ? booked.bonusEvents : [];
    };

    it("books the first part's bonus as a SUCCESS payment created when the money arrived, named by the report", () => {
      const first = afterReport(opened, report('0.0015', 'partially_paid'));
      const booked = credit(first.state, { paymentId: 8, state: null });
      expect(booked).toMatchObject({ kind: 'booked', firstBonusPaymentId: 8 });
      if (booked.kind !== 'booked') return;
      expect(booked.bonusEvents).toEqual([
        {
          type: 'PaymentRecorded',
          data: expect.objectContaining({
            paymentId: 8,
            type: 'AMBASSADOR_BONUS',
            status: 'SUCCESS',
            amountMinor: 750,
            bonusForPaymentId: 7,
            createdAt: later,
          }),
        },
      ]);
      expect(booked.walletEvents).toEqual([
        {
          type: 'AmbassadorBonusCredited',
          data: expect.objectContaining({ paymentId: 8, depositAmountMinor: 15_000, percent: 5, amountMinor: 750 }),
        },
      ]);
      const linked = afterReport(opened, report('0.0015', 'partially_paid'), 8);
      expect(linked.state.bonusPaymentId).toBe(8);
    });

    it('raises the same bonus payment to the tier the total reaches when the rest arrives', () => {
      const bonusEvents = firstBonusEvents(afterReport(opened, report('0.0015', 'partially_paid')).state);
      const bonusState = fold(paymentDecider, bonusEvents);
      const first = afterReport(opened, report('0.0015', 'partially_paid'), 8);
      const rest = afterReport([...opened, ...first.events], report('0.003', 'finished'));
      const raised = credit(rest.state, { paymentId: 8, state: bonusState });
      expect(raised).toMatchObject({ kind: 'booked', firstBonusPaymentId: null });
      if (raised.kind !== 'booked') return;
      // 300 dollars reach the 10 % tier: 30 dollars in all, 7.50 of which were booked with the first part.
      expect(raised.bonusEvents).toEqual([
        {
          type: 'AmbassadorBonusRaised',
          data: {
            paymentId: 8,
            userUuid: dana,
            depositPaymentId: 7,
            depositAmountMinor: 30_000,
            percent: 10,
            addedMinor: 2_250,
            amountMinor: 3_000,
            raisedAt: later,
          },
        },
      ]);
      expect(raised.walletEvents).toEqual([
        {
          type: 'AmbassadorBonusCredited',
          data: expect.objectContaining({ paymentId: 8, depositAmountMinor: 30_000, percent: 10, amountMinor: 2_250 }),
        },
      ]);
      expect(fold(paymentDecider, [...bonusEvents, ...raised.bonusEvents])?.amountMinor).toBe(3_000);
    });

    it('books nothing for a client, below the lowest tier, or when the bonus already matches the total', () => {
      const all = afterReport(opened, report('0.003', 'finished'));
      expect(credit(all.state, { paymentId: 8, state: null }, 'CLIENT')).toEqual({ kind: 'none' });
      const small = afterReport(opened, report('0.0001', 'partially_paid'));
      expect(credit(small.state, { paymentId: 8, state: null })).toEqual({ kind: 'none' });
      const bonusState = fold(paymentDecider, firstBonusEvents(all.state));
      const linked = afterReport(opened, report('0.003', 'finished'), 8);
      expect(credit(linked.state, { paymentId: 8, state: bonusState })).toEqual({ kind: 'none' });
    });

    it("asks for the right stream when the command locked none, or not the deposit's bonus", () => {
      const all = afterReport(opened, report('0.003', 'finished'));
      expect(credit(all.state, null)).toEqual({ kind: 'stream-needed' });
      const linked = afterReport(opened, report('0.003', 'finished'), 8);
      expect(credit(linked.state, { paymentId: 9, state: null })).toEqual({ kind: 'stream-needed' });
    });
  });
});
