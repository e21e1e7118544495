import { useQuery } from '@tanstack/react-query';
import { savedCardApi } from './endpoints';

export const SAVED_CARD_QUERY_KEY = ['users', 'me', 'saved-card'] as const;

/**
 * The caller's saved card and whether saving one is offered here (docs/adr/0085-saved-cards.md). A failed read only
 * hides the card's sections, so it raises no toast of its own over the page's.
 */
export function useSavedCard() {
  return useQuery({ queryKey: SAVED_CARD_QUERY_KEY, queryFn: savedCardApi.mine, meta: { silentError: true } });
}
