import { queryOptions } from '@tanstack/react-query';
import type { PaymentSearchRequest } from '@kupa/proto';
import { paymentsApi } from '../../lib/api/endpoints';

/**
 * Every payments query key starts with this prefix, so one invalidation after a transfer refreshes the list and
 * the detail screens together.
 */
export const PAYMENTS_QUERY_KEY = ['payments'] as const;

export function paymentDetailQueryKey(paymentId: number) {
  return [...PAYMENTS_QUERY_KEY, 'detail', paymentId] as const;
}

/**
 * One page of the payments list. The route's loader prefetches it (so preload on intent starts the request while
 * a link is hovered or focused) and the screen reads it, so both must describe the same query.
 */
export function paymentsSearchQueryOptions(request: PaymentSearchRequest) {
  return queryOptions({
    queryKey: [...PAYMENTS_QUERY_KEY, 'search', request],
    queryFn: ({ signal }) => paymentsApi.search(request, signal),
    // The failure is explained in place, below the filters.
    meta: { silentError: true },
    // The loader has just asked (every visit to the list runs it); a screen that mounts after that request failed
    // shows the failure rather than sending the same request a second time.
    retryOnMount: false,
  });
}
