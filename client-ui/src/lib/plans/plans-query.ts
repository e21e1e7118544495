import { queryOptions } from '@tanstack/react-query';
import { LIMITS, type PlanSearchRequest } from '@kupa/proto';
import { plansApi } from '../api/endpoints';

export const PLANS_QUERY_KEY = ['payment-plans'] as const;

/** Every package on sale (the API gives a customer ACTIVE ones only), shortest first and cheapest first within. */
const ACTIVE_PLANS_REQUEST: PlanSearchRequest = {
  statuses: ['ACTIVE'],
  page: 0,
  size: LIMITS.pageSizeMax,
  sorts: [
    { id: 'durationInMonths', desc: false },
    { id: 'price', desc: false },
  ],
};

export function activePlansQueryOptions() {
  return queryOptions({
    queryKey: [...PLANS_QUERY_KEY, 'search', ACTIVE_PLANS_REQUEST],
    queryFn: ({ signal }) => plansApi.search(ACTIVE_PLANS_REQUEST, signal),
    // The failure is explained in place, where the cards would be.
    meta: { silentError: true },
  });
}
