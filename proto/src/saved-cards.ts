import type { CardProvider } from './card';
import type { RenewalFunding } from './enums';
import type { IsoDateTime } from './payloads';

/*
 * Saved cards and the renewal funding choice (docs/adr/0085-saved-cards.md): a client keeps at most one card at the
 * card provider, saved on the provider's hosted checkout in setup mode, and each recurrent subscription says how its
 * automatic renewals are paid.
 */

/** Why a funding changed: its owner chose it, or the saved card it relied on was removed. */
export const RENEWAL_FUNDING_CHANGE_REASONS = Object.freeze(['CHOSEN', 'CARD_REMOVED'] as const);
export type RenewalFundingChangeReason = (typeof RENEWAL_FUNDING_CHANGE_REASONS)[number];

export function usesSavedCard(funding: RenewalFunding): boolean {
  return funding !== 'BALANCE';
}

/** A client's saved card stream: `saved-card-{userUuid}`, the customer at the provider and the card it keeps. */
export const SAVED_CARD_EVENT_TYPES = Object.freeze({
  customerCreated: 'CardCustomerCreated',
  saved: 'CardSaved',
  removed: 'CardRemoved',
} as const);

export type SavedCardEventType = (typeof SAVED_CARD_EVENT_TYPES)[keyof typeof SAVED_CARD_EVENT_TYPES];

export const SAVED_CARD_STREAM_PREFIX = 'saved-card-';

export function savedCardStreamId(userUuid: string): string {
  return `${SAVED_CARD_STREAM_PREFIX}${userUuid}`;
}

/** The client's customer at the card provider, made once and kept for every card the client saves later. */
export interface CardCustomerCreatedData {
  userUuid: string;
  provider: CardProvider;
  customerId: string;
  createdAt: IsoDateTime;
}

/**
 * A setup checkout saved a card: what a person needs to recognise it, never the number. A card saved before is
 * replaced (`replacedPaymentMethodId`, detached at the provider).
 */
export interface CardSavedData {
  userUuid: string;
  checkoutSessionId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** When the setup checkout was opened: a setup opened before the card's own never replaces it. */
  setupOpenedAt: IsoDateTime;
  replacedPaymentMethodId: string | null;
  savedAt: IsoDateTime;
}

/** The card was removed (detached at the provider): it is never charged again. */
export interface CardRemovedData {
  userUuid: string;
  paymentMethodId: string;
  removedAt: IsoDateTime;
}

export interface SavedCardEventDataByType {
  CardCustomerCreated: CardCustomerCreatedData;
  CardSaved: CardSavedData;
  CardRemoved: CardRemovedData;
}

export type SavedCardEvent = {
  [Type in SavedCardEventType]: { type: Type; data: SavedCardEventDataByType[Type] };
}[SavedCardEventType];

/** A client's saved card as the portal and the console show it: what a person recognises it by. */
export interface SavedCardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  savedAt: IsoDateTime;
}

/** `GET /users/me/saved-card`: whether a card can be saved here at all, and the card saved, if any. */
export interface SavedCardView {
  available: boolean;
  /**
   * Who keeps a card saved here: `STRIPE`, or `SANDBOX` when the sandbox card stands in for it (a test page, no real
   * card; docs/adr/0087-sandbox-saved-cards.md); null where there is no card provider.
   */
  provider: CardProvider | null;
  card: SavedCardSummary | null;
}

/** `POST /users/me/saved-card/setup`: the provider's hosted page where the client saves a card. */
export interface CardSetupResponse {
  url: string;
}

/** `PUT /subscriptions/{id}/renewal-funding`. */
export interface RenewalFundingRequest {
  funding: RenewalFunding;
}
