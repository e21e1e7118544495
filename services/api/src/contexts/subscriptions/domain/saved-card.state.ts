import type { CardProvider, SavedCardEvent } from '@kupa/proto';

/** The card a client keeps (docs/adr/0085-saved-cards.md): what a person recognises it by, and the provider's id. */
export interface SavedCard {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  setupOpenedAt: string;
  savedAt: string;
}

/** A client's saved card stream: the customer at the provider, the card, and every setup checkout already applied. */
export interface SavedCardState {
  customer: { provider: CardProvider; customerId: string } | null;
  card: SavedCard | null;
  /** Checkout sessions whose card was recorded: a webhook about one again (a repeat, a late one) changes nothing. */
  appliedSetups: ReadonlySet<string>;
}

export function initialSavedCardState(): SavedCardState {
  return { customer: null, card: null, appliedSetups: new Set() };
}

export function evolveSavedCard(state: SavedCardState, event: SavedCardEvent): SavedCardState {
  switch (event.type) {
    case 'CardCustomerCreated':
      return { ...state, customer: { provider: event.data.provider, customerId: event.data.customerId } };
    case 'CardSaved': {
      const { paymentMethodId, brand, last4, expMonth, expYear, setupOpenedAt, savedAt } = event.data;
      return {
        ...state,
        card: { paymentMethodId, brand, last4, expMonth, expYear, setupOpenedAt, savedAt },
        appliedSetups: new Set([...state.appliedSetups, event.data.checkoutSessionId]),
      };
    }
    case 'CardRemoved':
      return { ...state, card: null };
  }
}
