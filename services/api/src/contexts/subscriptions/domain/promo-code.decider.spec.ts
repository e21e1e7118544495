import { bestOfferPrice, type PromoCodeEvent, type PromoCodeTerms, promoDiscountMinor } from '@kupa/proto';
import { fold } from '../../../kernel';
import { deciderSpec } from '../../../test-support/decider-spec';
import {
  checkPromoCode,
  createPromoCode,
  disablePromoCode,
  promoCodeEvolution,
  quotePromoCode,
  redeemPromoCode,
  releasePromoCodeReservation,
  reservePromoCode,
  settlePromoCodeReservation,
} from './promo-code.decider';

const at = new Date('2026-06-10T12:00:00Z');
const alice = '11111111-1111-4111-8111-111111111111';
const bob = '22222222-2222-4222-8222-222222222222';
const planA = '33333333-3333-4333-8333-333333333333';
const planB = '44444444-4444-4444-8444-444444444444';

const terms = (overrides: Partial<PromoCodeTerms> = {}): PromoCodeTerms => ({
  discountKind: 'PERCENT',
  percent: 20,
  amountMinor: null,
  appliesTo: ['PURCHASE', 'RENEWAL'],
  planIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerClient: null,
  newClientsOnly: false,
  ...overrides,
});

const created = (overrides: Partial<PromoCodeTerms> = {}): PromoCodeEvent => ({
  type: 'PromoCodeCreated',
  data: { code: 'SPRING20', ...terms(overrides), createdAt: '2026-06-01T00:00:00.000Z' },
});

let nextPayment = 100;
const redeemed = (userUuid: string): PromoCodeEvent => ({
  type: 'PromoCodeRedeemed',
  data: {
    code: 'SPRING20',
    userUuid,
    use: 'PURCHASE',
    paymentId: nextPayment++,
    subscriptionId: '55555555-5555-4555-8555-555555555555',
    planId: planA,
    listPriceMinor: 1000,
    discountMinor: 200,
    priceMinor: 800,
    redeemedAt: '2026-06-05T00:00:00.000Z',
  },
});

const application = {
  userUuid: alice,
  use: 'PURCHASE' as const,
  planId: planA,
  listPriceMinor: 1000,
  isNewClient: true,
  at,
  referralPercent: 0,
  paymentId: 7,
  subscriptionId: '66666666-6666-4666-8666-666666666666',
};

const { given } = deciderSpec(promoCodeEvolution);

describe('promo code decider (docs/adr/0088-promo-codes.md)', () => {
  describe('creating', () => {
    it('records the terms once, with the lists sorted and without repeats', () => {
      given([])
        .when((state) =>
          createPromoCode(
            {
              code: 'SPRING20',
              terms: terms({ appliesTo: ['RENEWAL', 'PURCHASE', 'RENEWAL'] }),
              at: new Date('2026-06-01T00:00:00Z'),
            },
            state,
          ),
        )
        .then([created()]);
      given([created()])
        .when((state) => createPromoCode({ code: 'SPRING20', terms: terms(), at }, state))
        .thenRejects('error.promo.code.already.exists');
    });

    it.each([
      ['a percent of 0', terms({ percent: 0 })],
      ['a percent of 100', terms({ percent: 100 })],
      ['a fraction of a percent', terms({ percent: 12.5 })],
      ['an amount beside a percent', terms({ amountMinor: 500 })],
      ['an AMOUNT of nothing', terms({ discountKind: 'AMOUNT', percent: null, amountMinor: 0 })],
      ['nothing to apply to', terms({ appliesTo: [] })],
      ['an empty package list', terms({ planIds: [] })],
      ['zero uses', terms({ maxUses: 0 })],
      ['zero uses per client', terms({ maxUsesPerClient: 0 })],
      ['an end before the start', terms({ validFrom: '2026-07-01T00:00:00Z', validUntil: '2026-06-01T00:00:00Z' })],
    ])('refuses %s', (_what, bad) => {
      given([])
        .when((state) => createPromoCode({ code: 'X10', terms: bad, at }, state))
        .thenRejects('error.promo.code.terms.invalid');
    });
  });

  describe('disabling', () => {
    it('is for good, once; an unknown code is not found', () => {
      given([created()])
        .when((state) => disablePromoCode({ at }, state))
        .then([{ type: 'PromoCodeDisabled', data: { code: 'SPRING20', disabledAt: at.toISOString() } }]);
      const disabled: PromoCodeEvent = { type: 'PromoCodeDisabled', data: { code: 'SPRING20', disabledAt: '' } };
      given([created(), disabled])
        .when((state) => disablePromoCode({ at }, state))
        .then([]);
      given([])
        .when((state) => disablePromoCode({ at }, state))
        .thenRejects('error.promo.code.not.found');
      given([created(), disabled])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.disabled');
    });
  });

  describe('redeeming', () => {
    it('counts a use with the price it gave, in the same decision as the payment', () => {
      given([created()])
        .when((state) => redeemPromoCode(application, state).events)
        .then([
          {
            type: 'PromoCodeRedeemed',
            data: {
              code: 'SPRING20',
              userUuid: alice,
              use: 'PURCHASE',
              paymentId: 7,
              subscriptionId: application.subscriptionId,
              planId: planA,
              listPriceMinor: 1000,
              discountMinor: 200,
              priceMinor: 800,
              redeemedAt: at.toISOString(),
            },
          },
        ]);
    });

    it('is refused before its start and from its end on', () => {
      const dated = created({ validFrom: '2026-06-10T12:00:01.000Z', validUntil: '2026-06-20T00:00:00.000Z' });
      given([dated])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.expired');
      given([dated])
        .when((state) => redeemPromoCode({ ...application, at: new Date('2026-06-20T00:00:00Z') }, state).events)
        .thenRejects('error.promo.code.expired');
      expect(
        redeemPromoCode({ ...application, at: new Date('2026-06-19T23:59:59Z') }, fold(promoCodeEvolution, [dated]))
          .events,
      ).toHaveLength(1);
    });

    it('is refused for another package, another kind of payment, and an old client of a new-clients code', () => {
      given([created({ planIds: [planB] })])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.not.for.plan');
      given([created({ appliesTo: ['RENEWAL'] })])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.not.for.payment');
      given([created({ newClientsOnly: true })])
        .when((state) => redeemPromoCode({ ...application, isNewClient: false }, state).events)
        .thenRejects('error.promo.code.new.clients.only');
      given([created({ planIds: [planA, planB], newClientsOnly: true })])
        .when((state) => redeemPromoCode(application, state).events)
        .then([expect.objectContaining({ type: 'PromoCodeRedeemed' }) as PromoCodeEvent]);
    });

    it('stops at its total uses, counted across clients', () => {
      given([created({ maxUses: 2 }), redeemed(bob)])
        .when((state) => redeemPromoCode(application, state).events)
        .then([expect.objectContaining({ type: 'PromoCodeRedeemed' }) as PromoCodeEvent]);
      given([created({ maxUses: 2 }), redeemed(bob), redeemed(alice)])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.used.up');
    });

    it("stops at a client's own uses, leaving others theirs", () => {
      const history = [created({ maxUsesPerClient: 1 }), redeemed(alice)];
      given(history)
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.already.used');
      given(history)
        .when((state) => redeemPromoCode({ ...application, userUuid: bob }, state).events)
        .then([expect.objectContaining({ type: 'PromoCodeRedeemed' }) as PromoCodeEvent]);
    });

    it('is an unknown code when the stream is empty', () => {
      given([])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.not.found');
    });
  });

  describe('combining with the referral discount: the larger wins, never both', () => {
    it('takes the code when it takes more off, and does not spend it when the referral discount is as large', () => {
      const state = fold(promoCodeEvolution, [created({ percent: 20 })]);
      expect(quotePromoCode({ ...application, referralPercent: 10 }, state)).toEqual({
        listPriceMinor: 1000,
        priceMinor: 800,
        applied: 'PROMO_CODE',
        discountPercent: 0,
        promoDiscountMinor: 200,
      });
      const tie = redeemPromoCode({ ...application, referralPercent: 20 }, state);
      expect(tie.price).toEqual({
        listPriceMinor: 1000,
        priceMinor: 800,
        applied: 'REFERRAL',
        discountPercent: 20,
        promoDiscountMinor: 0,
      });
      expect(tie.events).toEqual([]);
      expect(redeemPromoCode({ ...application, referralPercent: 25 }, state).price.priceMinor).toBe(750);
    });

    it('still checks the code when the referral discount wins', () => {
      const state = fold(promoCodeEvolution, [created({ maxUses: 1 }), redeemed(bob)]);
      expect(() => quotePromoCode({ ...application, referralPercent: 25 }, state)).toThrow(
        expect.objectContaining({ code: 'error.promo.code.used.up' }) as Error,
      );
    });
  });

  describe('the amounts, in whole minor units', () => {
    it('rounds a percent half up, like the referral discount, and leaves at least one minor unit to pay', () => {
      expect(promoDiscountMinor(999, { discountKind: 'PERCENT', percent: 15, amountMinor: null })).toBe(150);
      expect(promoDiscountMinor(990, { discountKind: 'PERCENT', percent: 5, amountMinor: null })).toBe(50);
      expect(promoDiscountMinor(1000, { discountKind: 'AMOUNT', percent: null, amountMinor: 300 })).toBe(300);
      expect(promoDiscountMinor(1000, { discountKind: 'AMOUNT', percent: null, amountMinor: 5000 })).toBe(999);
      expect(bestOfferPrice(1000, 0, 999).priceMinor).toBe(1);
      expect(bestOfferPrice(1000, 0, null)).toMatchObject({ priceMinor: 1000, applied: 'NONE' });
    });

    it('answers the discount for the price asked', () => {
      const state = fold(promoCodeEvolution, [created({ discountKind: 'AMOUNT', percent: null, amountMinor: 250 })]);
      expect(checkPromoCode({ ...application, listPriceMinor: 200 }, state)).toBe(199);
      expect(checkPromoCode(application, state)).toBe(250);
    });
  });

  describe('holding a use for a card checkout or a crypto deposit', () => {
    const expiresAt = new Date('2026-06-11T12:00:00Z');
    const opening = (depositPaymentId: number, userUuid = alice) => ({
      ...application,
      userUuid,
      depositPaymentId,
      expiresAt,
    });
    const reservedData = (depositPaymentId: number, userUuid = alice) => ({
      code: 'SPRING20',
      userUuid,
      use: 'PURCHASE' as const,
      depositPaymentId,
      subscriptionId: application.subscriptionId,
      planId: planA,
      listPriceMinor: 1000,
      discountMinor: 200,
      priceMinor: 800,
      reservedAt: at.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    const reserved = (depositPaymentId: number, userUuid = alice): PromoCodeEvent => ({
      type: 'PromoCodeReserved',
      data: reservedData(depositPaymentId, userUuid),
    });
    const settlement = (depositPaymentId: number, when = at) => ({
      depositPaymentId,
      paymentId: 900,
      subscriptionId: application.subscriptionId,
      listPriceMinor: 1000,
      isNewClient: true,
      at: when,
    });

    it('reserves the use at the quoted price, until the checkout or deposit expires', () => {
      given([created()])
        .when((state) => reservePromoCode(opening(31), state).events)
        .then([reserved(31)]);
    });

    it('counts a live hold against the limits like a use: the last use held is used up for the others', () => {
      given([created({ maxUses: 2 }), redeemed(bob), reserved(31, bob)])
        .when((state) => reservePromoCode(opening(32), state).events)
        .thenRejects('error.promo.code.used.up');
      given([created({ maxUses: 2 }), redeemed(bob), reserved(31, bob)])
        .when((state) => redeemPromoCode(application, state).events)
        .thenRejects('error.promo.code.used.up');
      given([created({ maxUsesPerClient: 1 }), reserved(31)])
        .when((state) => reservePromoCode(opening(32), state).events)
        .thenRejects('error.promo.code.already.used');
    });

    it('no longer counts a hold past its expiry, nor a released one', () => {
      given([created({ maxUses: 1 }), reserved(31, bob)])
        .when((state) => reservePromoCode({ ...opening(32), at: expiresAt }, state).events)
        .then([
          {
            type: 'PromoCodeReserved',
            data: { ...reservedData(32), reservedAt: expiresAt.toISOString() },
          },
        ]);
      const released: PromoCodeEvent = {
        type: 'PromoCodeReservationReleased',
        data: { code: 'SPRING20', userUuid: bob, depositPaymentId: 31, reason: 'PURCHASE_FAILED', releasedAt: '' },
      };
      given([created({ maxUses: 1 }), reserved(31, bob), released])
        .when((state) => reservePromoCode(opening(32), state).events)
        .then([reserved(32)]);
    });

    it('holds nothing when the referral discount is larger', () => {
      given([created()])
        .when((state) => reservePromoCode({ ...opening(31), referralPercent: 30 }, state).events)
        .then([]);
    });

    it('settles: the hold becomes the use at the quoted discount, naming the deposit, and frees its place', () => {
      given([created({ maxUses: 1 }), reserved(31)])
        .when((state) => settlePromoCodeReservation(settlement(31), state)?.events ?? [])
        .then([
          {
            type: 'PromoCodeRedeemed',
            data: {
              code: 'SPRING20',
              userUuid: alice,
              use: 'PURCHASE',
              paymentId: 900,
              subscriptionId: application.subscriptionId,
              planId: planA,
              listPriceMinor: 1000,
              discountMinor: 200,
              priceMinor: 800,
              redeemedAt: at.toISOString(),
              depositPaymentId: 31,
            },
          },
        ]);
      const state = fold(promoCodeEvolution, [
        created({ maxUses: 1 }),
        reserved(31),
        ...(settlePromoCodeReservation(
          settlement(31),
          fold(promoCodeEvolution, [created({ maxUses: 1 }), reserved(31)]),
        )?.events ?? []),
      ]);
      expect(state.uses).toBe(1);
      expect(state.reservations.size).toBe(0);
    });

    it('honours a live hold even when the code was disabled since: the client paid that price', () => {
      const disabled: PromoCodeEvent = { type: 'PromoCodeDisabled', data: { code: 'SPRING20', disabledAt: '' } };
      const settled = settlePromoCodeReservation(
        settlement(31),
        fold(promoCodeEvolution, [created(), reserved(31), disabled]),
      );
      expect(settled?.events.map((event) => event.type)).toEqual(['PromoCodeRedeemed']);
    });

    it('asks the code again when the money came after the hold expired: refused when its place was taken', () => {
      const late = new Date('2026-06-12T00:00:00Z');
      given([created({ maxUses: 1 }), reserved(31), redeemed(bob)])
        .when((state) => settlePromoCodeReservation(settlement(31, late), state)?.events ?? [])
        .thenRejects('error.promo.code.used.up');
      const lateButRoom = settlePromoCodeReservation(
        settlement(31, late),
        fold(promoCodeEvolution, [created({ maxUses: 2 }), reserved(31), reserved(32, bob)]),
      );
      expect(lateButRoom?.discountMinor).toBe(200);
    });

    it('settles nothing for a deposit that held no use', () => {
      expect(settlePromoCodeReservation(settlement(31), fold(promoCodeEvolution, [created()]))).toBeNull();
    });

    it('releases a hold once; a settled or unknown one releases nothing', () => {
      given([created(), reserved(31)])
        .when((state) => releasePromoCodeReservation({ depositPaymentId: 31, reason: 'CHECKOUT_CLOSED', at }, state))
        .then([
          {
            type: 'PromoCodeReservationReleased',
            data: {
              code: 'SPRING20',
              userUuid: alice,
              depositPaymentId: 31,
              reason: 'CHECKOUT_CLOSED',
              releasedAt: at.toISOString(),
            },
          },
        ]);
      given([created()])
        .when((state) => releasePromoCodeReservation({ depositPaymentId: 31, reason: 'PURCHASE_FAILED', at }, state))
        .then([]);
    });
  });
});
