import {
  bestOfferPrice,
  type OfferPrice,
  type PromoCodeEvent,
  type PromoCodeReleaseReason,
  type PromoCodeReservedData,
  type PromoCodeTerms,
  type PromoCodeUse,
  promoDiscountMinor,
} from '@kupa/proto';
import { assert, DomainError, type Evolution } from '../../../kernel';

/**
 * The promo code stream's decisions (`promo-code-{CODE}`, docs/adr/0088-promo-codes.md): an admin creates a code and
 * may disable it; a purchase or a renewal redeems it in the same append as its payment, under the code's lock, so
 * every limit (total uses, uses per client) is checked against the uses already counted and never overshoots.
 */

export interface PromoCodeState {
  exists: boolean;
  code: string;
  terms: PromoCodeTerms | null;
  disabled: boolean;
  uses: number;
  usesByClient: ReadonlyMap<string, number>;
  /** Uses held for card checkouts and crypto deposits not settled yet, by the deposit's payment id. */
  reservations: ReadonlyMap<number, PromoCodeReservedData>;
}

export function initialPromoCodeState(): PromoCodeState {
  return {
    exists: false,
    code: '',
    terms: null,
    disabled: false,
    uses: 0,
    usesByClient: new Map(),
    reservations: new Map(),
  };
}

function withoutReservation(state: PromoCodeState, depositPaymentId: number): PromoCodeState {
  if (!state.reservations.has(depositPaymentId)) return state;
  const reservations = new Map(state.reservations);
  reservations.delete(depositPaymentId);
  return { ...state, reservations };
}

export function evolvePromoCode(state: PromoCodeState, event: PromoCodeEvent): PromoCodeState {
  switch (event.type) {
    case 'PromoCodeCreated': {
      const { code, createdAt: _createdAt, ...terms } = event.data;
      return { ...state, exists: true, code, terms };
    }
    case 'PromoCodeDisabled':
      return { ...state, disabled: true };
    case 'PromoCodeRedeemed': {
      const usesByClient = new Map(state.usesByClient);
      usesByClient.set(event.data.userUuid, (usesByClient.get(event.data.userUuid) ?? 0) + 1);
      const settled = event.data.depositPaymentId;
      const rest = settled === undefined ? state : withoutReservation(state, settled);
      return { ...rest, uses: state.uses + 1, usesByClient };
    }
    case 'PromoCodeReserved': {
      const reservations = new Map(state.reservations);
      reservations.set(event.data.depositPaymentId, event.data);
      return { ...state, reservations };
    }
    case 'PromoCodeReservationReleased':
      return withoutReservation(state, event.data.depositPaymentId);
  }
}

export const promoCodeEvolution: Evolution<PromoCodeState, PromoCodeEvent> = {
  evolve: evolvePromoCode,
  initialState: initialPromoCodeState,
};

const positiveIntegerOrNull = (value: number | null) => value === null || (Number.isSafeInteger(value) && value > 0);

/** The terms an admin may set: one kind of discount with its value, something to apply to, limits that are limits. */
function checkTerms(terms: PromoCodeTerms): void {
  const percentOk =
    terms.discountKind === 'PERCENT'
      ? terms.percent !== null && Number.isInteger(terms.percent) && terms.percent >= 1 && terms.percent <= 99
      : terms.percent === null;
  const amountOk =
    terms.discountKind === 'AMOUNT'
      ? terms.amountMinor !== null && Number.isSafeInteger(terms.amountMinor) && terms.amountMinor > 0
      : terms.amountMinor === null;
  const datesOk =
    terms.validFrom === null ||
    terms.validUntil === null ||
    new Date(terms.validFrom).getTime() < new Date(terms.validUntil).getTime();
  const ok =
    percentOk &&
    amountOk &&
    datesOk &&
    terms.appliesTo.length > 0 &&
    (terms.planIds === null || terms.planIds.length > 0) &&
    positiveIntegerOrNull(terms.maxUses) &&
    positiveIntegerOrNull(terms.maxUsesPerClient);
  if (!ok) throw new DomainError('error.promo.code.terms.invalid');
}

export function createPromoCode(
  command: { code: string; terms: PromoCodeTerms; at: Date },
  state: PromoCodeState,
): PromoCodeEvent[] {
  if (state.exists) throw new DomainError('error.promo.code.already.exists');
  checkTerms(command.terms);
  const { terms } = command;
  return [
    {
      type: 'PromoCodeCreated',
      data: {
        code: command.code,
        discountKind: terms.discountKind,
        percent: terms.percent,
        amountMinor: terms.amountMinor,
        appliesTo: [...new Set(terms.appliesTo)].sort(),
        planIds: terms.planIds === null ? null : [...new Set(terms.planIds)].sort(),
        validFrom: terms.validFrom,
        validUntil: terms.validUntil,
        maxUses: terms.maxUses,
        maxUsesPerClient: terms.maxUsesPerClient,
        newClientsOnly: terms.newClientsOnly,
        createdAt: command.at.toISOString(),
      },
    },
  ];
}

/** Disabling is for good (a code is not re-enabled: create another); disabling twice changes nothing. */
export function disablePromoCode(command: { at: Date }, state: PromoCodeState): PromoCodeEvent[] {
  if (!state.exists) throw new DomainError('error.promo.code.not.found');
  if (state.disabled) return [];
  return [{ type: 'PromoCodeDisabled', data: { code: state.code, disabledAt: command.at.toISOString() } }];
}

/** Who uses a code for what, and at what list price; `isNewClient` is "never bought a package before". */
export interface PromoCodeApplication {
  userUuid: string;
  use: PromoCodeUse;
  planId: string;
  listPriceMinor: number;
  isNewClient: boolean;
  at: Date;
}

/**
 * Whether the code may be used here and now, checked in the order a client can act on: unknown, disabled, out of its
 * dates, not for this payment or package, new clients only, then the limits. Answers the code's discount in minor
 * units.
 */
export function checkPromoCode(application: PromoCodeApplication, state: PromoCodeState): number {
  if (!state.exists || state.terms === null) throw new DomainError('error.promo.code.not.found');
  const { terms } = state;
  if (state.disabled) throw new DomainError('error.promo.code.disabled');
  const now = application.at.getTime();
  if (
    (terms.validFrom !== null && now < new Date(terms.validFrom).getTime()) ||
    (terms.validUntil !== null && now >= new Date(terms.validUntil).getTime())
  )
    throw new DomainError('error.promo.code.expired');
  if (!terms.appliesTo.includes(application.use)) throw new DomainError('error.promo.code.not.for.payment');
  if (terms.planIds !== null && !terms.planIds.includes(application.planId))
    throw new DomainError('error.promo.code.not.for.plan');
  if (terms.newClientsOnly && !application.isNewClient) throw new DomainError('error.promo.code.new.clients.only');
  // A use held for a checkout or deposit still open counts like a use; one past its expiry no longer holds anything.
  const held = [...state.reservations.values()].filter((held) => now < new Date(held.expiresAt).getTime());
  const heldFor = held.filter((reservation) => reservation.userUuid === application.userUuid).length;
  if (terms.maxUses !== null && state.uses + held.length >= terms.maxUses)
    throw new DomainError('error.promo.code.used.up');
  if (
    terms.maxUsesPerClient !== null &&
    (state.usesByClient.get(application.userUuid) ?? 0) + heldFor >= terms.maxUsesPerClient
  )
    throw new DomainError('error.promo.code.already.used');
  return promoDiscountMinor(application.listPriceMinor, terms);
}

/** The price with a code, by the combination rule (the larger discount wins), without spending the code. */
export function quotePromoCode(
  application: PromoCodeApplication & { referralPercent: number },
  state: PromoCodeState,
): OfferPrice {
  return bestOfferPrice(application.listPriceMinor, application.referralPercent, checkPromoCode(application, state));
}

/**
 * The price a payment is made at, and the code's use when the code won: a code that does not beat the referral
 * discount is not spent. The caller appends `events` in the same transaction as the payment `paymentId`.
 */
export function redeemPromoCode(
  application: PromoCodeApplication & { referralPercent: number; paymentId: number; subscriptionId: string },
  state: PromoCodeState,
): { price: OfferPrice; events: PromoCodeEvent[] } {
  const price = quotePromoCode(application, state);
  if (price.applied !== 'PROMO_CODE') return { price, events: [] };
  return {
    price,
    events: [
      {
        type: 'PromoCodeRedeemed',
        data: {
          code: state.code,
          userUuid: application.userUuid,
          use: application.use,
          paymentId: application.paymentId,
          subscriptionId: application.subscriptionId,
          planId: application.planId,
          listPriceMinor: price.listPriceMinor,
          discountMinor: price.promoDiscountMinor,
          priceMinor: price.priceMinor,
          redeemedAt: application.at.toISOString(),
        },
      },
    ],
  };
}

/**
 * A card checkout or a crypto deposit opened with the code: the price is quoted now and decided when the money
 * arrives, so the use is held in between, counted against the limits under the code's lock like a use, until
 * `expiresAt` (the checkout's or deposit's life). A code that does not beat the referral discount holds nothing.
 */
export function reservePromoCode(
  application: PromoCodeApplication & {
    referralPercent: number;
    depositPaymentId: number;
    subscriptionId: string;
    expiresAt: Date;
  },
  state: PromoCodeState,
): { price: OfferPrice; events: PromoCodeEvent[] } {
  assert(!state.reservations.has(application.depositPaymentId), 'a deposit holds one use of a code');
  const price = quotePromoCode(application, state);
  if (price.applied !== 'PROMO_CODE') return { price, events: [] };
  return {
    price,
    events: [
      {
        type: 'PromoCodeReserved',
        data: {
          code: state.code,
          userUuid: application.userUuid,
          use: application.use,
          depositPaymentId: application.depositPaymentId,
          subscriptionId: application.subscriptionId,
          planId: application.planId,
          listPriceMinor: price.listPriceMinor,
          discountMinor: price.promoDiscountMinor,
          priceMinor: price.priceMinor,
          reservedAt: application.at.toISOString(),
          expiresAt: application.expiresAt.toISOString(),
        },
      },
    ],
  };
}

/**
 * The money of a checkout or deposit that held a use arrived, and its purchase is being decided: the use it held
 * becomes a use (`PromoCodeRedeemed` naming the deposit), at the discount it was quoted, in the same transaction as
 * the payment. Within its life the reservation is honoured as it was made (the client paid that price), even if the
 * code was disabled or ran out of dates since. Money that arrives after the reservation expired, or one released,
 * asks the code again as a new use at this instant; a refusal is thrown, so the purchase fails with the code's
 * reason and the money stays on the balance (it is never charged at another price than quoted). Answers null when the
 * deposit held no use of this code.
 */
export function settlePromoCodeReservation(
  settlement: {
    depositPaymentId: number;
    paymentId: number;
    subscriptionId: string;
    /** The list price now: a package repriced lower since keeps at least one cent to pay. */
    listPriceMinor: number;
    isNewClient: boolean;
    at: Date;
  },
  state: PromoCodeState,
): { discountMinor: number; events: PromoCodeEvent[] } | null {
  const reservation = state.reservations.get(settlement.depositPaymentId);
  if (reservation === undefined) return null;
  const { at } = settlement;
  if (at.getTime() >= new Date(reservation.expiresAt).getTime()) {
    // Its own lapsed hold does not count against it; every other use and live hold does.
    checkPromoCode(
      {
        userUuid: reservation.userUuid,
        use: reservation.use,
        planId: reservation.planId,
        listPriceMinor: reservation.listPriceMinor,
        isNewClient: settlement.isNewClient,
        at,
      },
      withoutReservation(state, settlement.depositPaymentId),
    );
  }
  const discountMinor = Math.min(reservation.discountMinor, settlement.listPriceMinor - 1);
  return {
    discountMinor,
    events: [
      {
        type: 'PromoCodeRedeemed',
        data: {
          code: state.code,
          userUuid: reservation.userUuid,
          use: reservation.use,
          paymentId: settlement.paymentId,
          subscriptionId: settlement.subscriptionId,
          planId: reservation.planId,
          listPriceMinor: settlement.listPriceMinor,
          discountMinor,
          priceMinor: settlement.listPriceMinor - discountMinor,
          redeemedAt: at.toISOString(),
          depositPaymentId: settlement.depositPaymentId,
        },
      },
    ],
  };
}

/**
 * The held use is given back: its purchase failed (short money, a rule's refusal) or its checkout closed unpaid.
 * Nothing when the deposit holds no use (released or settled already), so it is safe to ask twice.
 */
export function releasePromoCodeReservation(
  command: { depositPaymentId: number; reason: PromoCodeReleaseReason; at: Date },
  state: PromoCodeState,
): PromoCodeEvent[] {
  const reservation = state.reservations.get(command.depositPaymentId);
  if (reservation === undefined) return [];
  return [
    {
      type: 'PromoCodeReservationReleased',
      data: {
        code: state.code,
        userUuid: reservation.userUuid,
        depositPaymentId: command.depositPaymentId,
        reason: command.reason,
        releasedAt: command.at.toISOString(),
      },
    },
  ];
}
