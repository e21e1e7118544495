import type { CardProvider, SavedCardEvent } from '@kupa/proto';
import { DomainError, type Evolution } from '../../../kernel';
import { SUBSCRIPTION_ERRORS } from './subscription.errors';
import { evolveSavedCard, initialSavedCardState, type SavedCardState } from './saved-card.state';

/**
 * The saved card stream's decisions (`saved-card-{userUuid}`, docs/adr/0085-saved-cards.md): one customer at the card
 * provider per client, at most one card, replaced by a newer setup and removable at any time.
 */
export const savedCardEvolution: Evolution<SavedCardState, SavedCardEvent> = {
  evolve: evolveSavedCard,
  initialState: initialSavedCardState,
};

/** The customer is made once: a second one (two first setups at once) is not recorded, the first one is kept. */
export function recordCardCustomer(
  command: { userUuid: string; provider: CardProvider; customerId: string; at: Date },
  state: SavedCardState,
): SavedCardEvent[] {
  if (state.customer !== null) return [];
  return [
    {
      type: 'CardCustomerCreated',
      data: {
        userUuid: command.userUuid,
        provider: command.provider,
        customerId: command.customerId,
        createdAt: command.at.toISOString(),
      },
    },
  ];
}

/** A completed setup checkout as the provider tells it when read back. */
export interface CompletedCardSetup {
  checkoutSessionId: string;
  customerId: string | null;
  openedAt: Date;
  paymentMethod: { paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number };
}

/**
 * A setup checkout saved a card. It is recorded when the setup is of this client's customer, was never recorded
 * before (webhooks repeat), and was opened no earlier than the card it replaces (webhooks arrive in any order, and a
 * client may open two setups): the newest setup's card is the one kept, and the card before it is replaced.
 */
export function saveCard(
  command: { userUuid: string; setup: CompletedCardSetup; at: Date },
  state: SavedCardState,
): SavedCardEvent[] {
  const { setup } = command;
  if (state.customer === null || setup.customerId !== state.customer.customerId) return [];
  if (state.appliedSetups.has(setup.checkoutSessionId)) return [];
  if (state.card !== null && setup.openedAt.getTime() < new Date(state.card.setupOpenedAt).getTime()) return [];
  if (state.card?.paymentMethodId === setup.paymentMethod.paymentMethodId) return [];
  return [
    {
      type: 'CardSaved',
      data: {
        userUuid: command.userUuid,
        checkoutSessionId: setup.checkoutSessionId,
        ...setup.paymentMethod,
        setupOpenedAt: setup.openedAt.toISOString(),
        replacedPaymentMethodId: state.card?.paymentMethodId ?? null,
        savedAt: command.at.toISOString(),
      },
    },
  ];
}

/** The client removes the card: from now on it is never charged. Without a card, `error.card.not.saved`. */
export function removeCard(command: { userUuid: string; at: Date }, state: SavedCardState): SavedCardEvent[] {
  if (state.card === null) throw new DomainError(SUBSCRIPTION_ERRORS.cardNotSaved);
  return [
    {
      type: 'CardRemoved',
      data: {
        userUuid: command.userUuid,
        paymentMethodId: state.card.paymentMethodId,
        removedAt: command.at.toISOString(),
      },
    },
  ];
}
