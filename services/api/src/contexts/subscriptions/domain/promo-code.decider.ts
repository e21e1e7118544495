import {
  bestOfferPrice,
  type OfferPrice,
  type PromoCodeEvent,
  type PromoCodeTerms,
  type PromoCodeUse,
  promoDiscountMinor,
} from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';

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
}

export function initialPromoCodeState(): PromoCodeState {
  return { exists: false, code: '', terms: null, disabled: false, uses: 0, usesByClient: new Map() };
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
      return { ...state, uses: state.uses + 1, usesByClient };
    }
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
  if (terms.maxUses !== null && state.uses >= terms.maxUses) throw new DomainError('error.promo.code.used.up');
  if (terms.maxUsesPerClient !== null && (state.usesByClient.get(application.userUuid) ?? 0) >= terms.maxUsesPerClient)
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
