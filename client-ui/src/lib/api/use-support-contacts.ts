import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  type RewardTierTables,
  type SupportContacts,
} from '@kupa/proto';
import { commonApi } from './endpoints';

export const DICTIONARIES_QUERY_KEY = ['dictionaries'] as const;

const NO_CONTACTS: SupportContacts = { telegram: null, email: null };

/**
 * The deployment's support contacts (`GET /dictionaries`, public): a contact that is not configured is null and is not
 * shown. They change only with a restart of the server, so one answer serves the whole visit. A failure shows no
 * contacts rather than a toast: every screen that offers them still works without.
 */
export function useSupportContacts(): { contacts: SupportContacts; isPending: boolean } {
  const query = useDictionaries();
  return { contacts: query.data?.support ?? NO_CONTACTS, isPending: query.isPending };
}

export function hasAnyContact(contacts: SupportContacts): boolean {
  return contacts.telegram !== null || contacts.email !== null;
}

/**
 * The reward tables the deployment runs with (`GET /dictionaries`, the same answer as the contacts). Until it arrives,
 * or if it fails, proto's defaults stand in: the tables only explain the tiers, the discount itself comes with the user.
 */
export function useRewardTiers(): RewardTierTables {
  const query = useDictionaries();
  return (
    query.data?.rewardTiers ?? {
      referralDiscount: [...DEFAULT_REFERRAL_DISCOUNT_TIERS],
      ambassadorBonus: [...DEFAULT_AMBASSADOR_BONUS_TIERS],
    }
  );
}

/**
 * The reward tables the deployment runs with, or null until they arrive: a figure of money shown to the user (the
 * bonus a deposit would earn) must come from the tables the server books with, never from proto's defaults.
 */
export function useKnownRewardTiers(): RewardTierTables | null {
  return useDictionaries().data?.rewardTiers ?? null;
}

/**
 * Whether the deployment takes cards (`Dictionaries.cardCheckoutAvailable`, the same answer as the contacts). Until it
 * arrives, or if it fails, no card is offered.
 */
export function useCardCheckoutAvailable(): boolean {
  return useDictionaries().data?.cardCheckoutAvailable === true;
}

/**
 * Whether the balance can be topped up by card (`Dictionaries.cardTopUpAvailable`: a card provider and the operator's
 * `CARD_BALANCE_PAYMENTS` switch, ADR 0082). Until it arrives, or if it fails, the card is not offered.
 */
export function useCardTopUpAvailable(): boolean {
  return useDictionaries().data?.cardTopUpAvailable === true;
}

/**
 * Whether the deployment has a crypto cashier (`Dictionaries.cryptoDepositAvailable`): a real deployment without
 * `CASHIER_URL` has none (docs/adr/0055-sandboxes-only-on-demand.md). Until the answer arrives, or from a server that
 * does not say, crypto is offered, and the deposit itself answers `error.cashier.unavailable` if it is not.
 */
export function useCryptoDepositAvailable(): boolean {
  return useDictionaries().data?.cryptoDepositAvailable !== false;
}

/**
 * The streaming service's site as the deployment configures it (`Dictionaries.streamingSiteUrl`, the address a
 * subscription's "How to connect" shows), or null: none configured, an answer not yet in, or a failure. The sidebar
 * links it only when there is one, rather than a made-up address.
 */
export function useStreamingSiteUrl(): string | null {
  return useDictionaries().data?.streamingSiteUrl ?? null;
}

/** `GET /dictionaries`: it changes only with a restart of the server, so one answer serves the whole visit. */
function useDictionaries() {
  return useQuery({
    queryKey: DICTIONARIES_QUERY_KEY,
    queryFn: commonApi.dictionaries,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silentError: true },
  });
}
