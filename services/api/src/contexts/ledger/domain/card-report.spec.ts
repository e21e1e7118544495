import type { AmbassadorBonusTier, CardProvider, UserRole } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import { BONUS_ACCOUNT } from './wallet.decider';
import { type CardReportDecision, mayEarnAmbassadorBonus, settleCardReport } from './card-report';
import type { CardReport } from './payment.decider';
import type { PaymentEvent } from './ledger.events';
import { paymentDecider } from './payment.decider';
import { recordedPayment } from './payment.fixtures';
import { walletDecider } from './wallet.decider';

const userUuid = '11111111-1111-4111-8111-111111111111';
const openedAt = '2026-03-02T09:00:00.000Z';
const at = new Date('2026-03-02T10:00:00.000Z');
const reportedAt = at.toISOString();
const creditTx = '00000000-0000-4000-8000-000000000001';
const bonusTx = '00000000-0000-4000-8000-000000000002';
/** One tier, so that its threshold is the boundary under test. */
const tiers: readonly AmbassadorBonusTier[] = [{ minDepositMinor: 5_000, percent: 5 }];
const BONUS_PAYMENT_ID = 9;

/** A card deposit of `amountMinor` (payment 7) as its opening recorded it, at Stripe or at the sandbox card. */
const opened = (amountMinor: number, provider: CardProvider = 'STRIPE'): PaymentEvent[] => [
  {
    type: 'PaymentRecorded',
    data: recordedPayment({
      method: 'CARD',
      aggregator: 'STRIPE',
      status: 'PENDING',
      amountMinor,
      counterAccount: provider === 'SANDBOX' ? 'world:sandbox-card' : 'world:stripe',
      comment: null,
      createdAt: openedAt,
    }),
  },
  {
    type: 'CardCheckoutOpened',
    data: {
      paymentId: 7,
      userUuid,
      provider,
      checkoutSessionId: 'cs_1',
      checkoutUrl: 'https://checkout.stripe.test/c/pay/cs_1',
      amountAskedMinor: amountMinor,
      openedAt,
    },
  },
];

const paid = (
  amountTotalMinor: number,
  providerEventId = 'evt_1',
  currency: string | null = 'usd',
  provider: CardProvider = 'STRIPE',
): CardReport => ({
  provider,
  providerEventId,
  providerEventType: 'checkout.session.completed',
  providerPaymentId: 'pi_1',
  providerStatus: 'paid',
  amountTotalMinor,
  currency,
});

/**
 * When `report` is settled on the deposit `history` leaves, with an empty wallet, for an owner of `role`, with the
 * bonus's spare payment stream named (or not).
 */
const settle = (
  history: PaymentEvent[],
  report: CardReport,
  role: UserRole,
  bonusStreamNamed = mayEarnAmbassadorBonus(role),
): CardReportDecision =>
  settleCardReport(
    { report, at, role, tiers, transactionIds: { credit: creditTx, bonus: bonusTx } },
    {
      deposit: fold(paymentDecider, history),
      wallet: walletDecider.initialState(),
      bonus: bonusStreamNamed ? { paymentId: BONUS_PAYMENT_ID, state: null } : null,
    },
  );

const reported = (amountMinor: number, extra: Record<string, unknown> = {}): PaymentEvent => ({
  type: 'CardPaymentReported',
  data: {
    paymentId: 7,
    userUuid,
    providerEventId: 'evt_1',
    providerEventType: 'checkout.session.completed',
    providerPaymentId: 'pi_1',
    providerStatus: 'paid',
    creditedMinor: amountMinor,
    amountReceivedMinor: amountMinor,
    previousStatus: 'PENDING',
    status: 'SUCCESS',
    reportedAt,
    ...extra,
  },
});

const credited = (amountMinor: number, source = 'world:stripe') => ({
  type: 'CardDepositCredited',
  data: {
    userUuid,
    paymentId: 7,
    providerPaymentId: 'pi_1',
    amountMinor,
    transaction: {
      transactionId: creditTx,
      postings: [{ source, destination: `user:${userUuid}`, amountMinor }],
    },
  },
});

const { given } = deciderSpec(paymentDecider);

describe("a card report's effects on the deposit, the wallet and an ambassador bonus (docs/adr/0029-card-checkout.md)", () => {
  it('given no such payment, when a report is settled, then it is refused', () => {
    given([])
      .when(
        (deposit) =>
          settleCardReport(
            { report: paid(2_500), at, role: 'CLIENT', tiers, transactionIds: { credit: creditTx, bonus: bonusTx } },
            { deposit, wallet: walletDecider.initialState(), bonus: null },
          ).payment,
      )
      .thenRejects('error.payment.not.found');
  });

  it("given a client's open checkout, when it is reported paid, then the deposit is reported and the wallet credited", () => {
    const decision = settle(opened(2_500), paid(2_500), 'CLIENT');
    expect(decision).toMatchObject({
      payment: [reported(2_500)],
      wallet: [credited(2_500)],
      bonus: [],
      creditedMinor: 2_500,
      depositAfter: { status: 'SUCCESS', bonusPaymentId: null },
      walletAfter: { balanceMinor: 2_500 },
    });
  });

  it('given a checkout the sandbox card holds, when the sandbox reports it paid, then the money comes from world:sandbox-card (ADR 0080)', () => {
    const decision = settle(opened(2_500, 'SANDBOX'), paid(2_500, 'evt_1', 'usd', 'SANDBOX'), 'CLIENT');
    expect(decision).toMatchObject({
      payment: [reported(2_500)],
      wallet: [credited(2_500, 'world:sandbox-card')],
      creditedMinor: 2_500,
      walletAfter: { balanceMinor: 2_500 },
    });
  });

  it("given an ambassador's sandbox checkout, when it is paid, then only the deposit comes from the sandbox; the bonus is the house's", () => {
    const decision = settle(opened(5_000, 'SANDBOX'), paid(5_000, 'evt_1', 'usd', 'SANDBOX'), 'AMBASSADOR');
    expect(
      decision.wallet.map(
        (event) => ('transaction' in event.data ? event.data.transaction : null)?.postings[0]?.source,
      ),
    ).toEqual(['world:sandbox-card', BONUS_ACCOUNT]);
  });

  it('given a checkout at one provider, when the other reports on it, then the report is refused and nothing is booked', () => {
    for (const [holder, reporter] of [
      ['STRIPE', 'SANDBOX'],
      ['SANDBOX', 'STRIPE'],
    ] as const) {
      given(opened(2_500, holder))
        .when(
          (deposit) =>
            settleCardReport(
              {
                report: paid(2_500, 'evt_1', 'usd', reporter),
                at,
                role: 'CLIENT',
                tiers,
                transactionIds: { credit: creditTx, bonus: bonusTx },
              },
              { deposit, wallet: walletDecider.initialState(), bonus: null },
            ).payment,
        )
        .thenRejects('error.card.webhook.signature.invalid');
    }
  });

  it('given a checkout already credited, when a second paid report arrives, then it credits nothing', () => {
    const first = settle(opened(2_500), paid(2_500), 'CLIENT');
    const decision = settle([...opened(2_500), ...first.payment], paid(2_500, 'evt_2'), 'CLIENT');
    expect(decision).toMatchObject({ payment: [], wallet: [], bonus: [], creditedMinor: 0 });
  });

  it('given a checkout paid in another currency, then it waits for staff and nothing is credited or earned', () => {
    const decision = settle(opened(5_000), paid(5_000, 'evt_1', 'eur'), 'AMBASSADOR');
    expect(decision).toMatchObject({
      payment: [{ type: 'CardPaymentReported', data: { status: 'REVIEW', creditedMinor: 0 } }],
      wallet: [],
      bonus: [],
      creditedMinor: 0,
    });
  });

  it("given an ambassador's checkout of exactly the lowest tier, when it is paid, then the bonus is booked with the credit", () => {
    const decision = settle(opened(5_000), paid(5_000), 'AMBASSADOR');
    expect(decision.payment).toEqual([reported(5_000, { bonusPaymentId: BONUS_PAYMENT_ID })]);
    expect(decision.wallet).toEqual([
      credited(5_000),
      {
        type: 'AmbassadorBonusCredited',
        data: {
          userUuid,
          paymentId: BONUS_PAYMENT_ID,
          depositPaymentId: 7,
          depositAmountMinor: 5_000,
          percent: 5,
          amountMinor: 250,
          transaction: {
            transactionId: bonusTx,
            postings: [{ source: BONUS_ACCOUNT, destination: `user:${userUuid}`, amountMinor: 250 }],
          },
        },
      },
    ]);
    expect(decision.bonus).toEqual([
      {
        type: 'PaymentRecorded',
        data: expect.objectContaining({
          paymentId: BONUS_PAYMENT_ID,
          type: 'AMBASSADOR_BONUS',
          status: 'SUCCESS',
          amountMinor: 250,
          bonusForPaymentId: 7,
        }),
      },
    ]);
    expect(decision.depositAfter?.bonusPaymentId).toBe(BONUS_PAYMENT_ID);
    expect(decision.walletAfter.balanceMinor).toBe(5_250);
  });

  it("given an ambassador's checkout one cent below the lowest tier, when it is paid, then it is credited and earns nothing", () => {
    const decision = settle(opened(4_999), paid(4_999), 'AMBASSADOR');
    expect(decision).toMatchObject({
      payment: [reported(4_999)],
      wallet: [credited(4_999)],
      bonus: [],
      depositAfter: { bonusPaymentId: null },
    });
  });

  it('given no bonus stream was named, or the owner is no ambassador, then no bonus is booked', () => {
    expect(settle(opened(5_000), paid(5_000), 'AMBASSADOR', false)).toMatchObject({
      wallet: [credited(5_000)],
      bonus: [],
    });
    expect(settle(opened(5_000), paid(5_000), 'CLIENT', true)).toMatchObject({
      wallet: [credited(5_000)],
      bonus: [],
    });
    expect(mayEarnAmbassadorBonus('AMBASSADOR')).toBe(true);
    expect(mayEarnAmbassadorBonus('CLIENT')).toBe(false);
  });
});
