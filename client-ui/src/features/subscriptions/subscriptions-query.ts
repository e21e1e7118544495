import { queryOptions } from '@tanstack/react-query';
import { LIMITS, type Subscription, type SubscriptionSearchRequest } from '@kupa/proto';
import { subscriptionsApi } from '../../lib/api/endpoints';
import type { Translate } from '../../lib/i18n/i18n';

/** Every subscriptions query key starts with this prefix, so one invalidation refreshes the list and the details. */
export const SUBSCRIPTIONS_QUERY_KEY = ['subscriptions'] as const;

/**
 * How often a screen asks again while a subscription is PENDING: the streaming service usually has the account within
 * seconds, and the client is watching the screen for it.
 */
export const PENDING_REFETCH_INTERVAL_MS = 3_000;

/**
 * The client's own subscriptions, newest first. A client holds a handful, so one page of the largest size the API
 * serves shows them all.
 */
export const OWN_SUBSCRIPTIONS_REQUEST: SubscriptionSearchRequest = {
  page: 0,
  size: LIMITS.pageSizeMax,
  sorts: [{ id: 'createdAt', desc: true }],
};

export function subscriptionsListQueryOptions(request: SubscriptionSearchRequest = OWN_SUBSCRIPTIONS_REQUEST) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'search', request],
    queryFn: ({ signal }) => subscriptionsApi.search(request, signal),
    // The failure is explained in place, where the list would be.
    meta: { silentError: true },
    refetchInterval: (query) =>
      query.state.data?.content.some((subscription) => subscription.status === 'PENDING')
        ? PENDING_REFETCH_INTERVAL_MS
        : false,
  });
}

export function subscriptionDetailQueryOptions(subscriptionId: string) {
  return queryOptions({
    queryKey: [...SUBSCRIPTIONS_QUERY_KEY, 'detail', subscriptionId],
    queryFn: () => subscriptionsApi.get(subscriptionId),
    // A missing subscription is a screen of its own, not a toast; other failures are explained in place as well.
    meta: { silentError: true },
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? PENDING_REFETCH_INTERVAL_MS : false),
  });
}

/** A trial belongs to no package; either trial type counts (the API creates TRIAL_FOR_NEW_USERS). */
export function isTrial(subscription: Pick<Subscription, 'type'>): boolean {
  return subscription.type !== 'REGULAR';
}

/** Still running or about to: the states in which the login and password mean something at the streaming service. */
export function isLive(subscription: Pick<Subscription, 'status'>): boolean {
  return (
    subscription.status === 'ACTIVE' || subscription.status === 'PENDING' || subscription.status === 'UNSUBSCRIBED'
  );
}

/** Paused after an unpaid renewal (ADR 0081): the account is disabled, the login kept until `graceEndsAt`. */
export function inGrace(subscription: Pick<Subscription, 'status'>): boolean {
  return subscription.status === 'GRACE';
}

/** A subscription is named by its package; a trial belongs to none. */
export function subscriptionName(subscription: Pick<Subscription, 'paymentPlan'>, t: Translate): string {
  return subscription.paymentPlan?.planName ?? t('subscriptions.trial');
}
