/**
 * Every payments query key starts with this prefix, so one invalidation after a transfer refreshes the list and
 * the detail screens together.
 */
export const PAYMENTS_QUERY_KEY = ['payments'] as const;

export function paymentDetailQueryKey(paymentId: number) {
  return [...PAYMENTS_QUERY_KEY, 'detail', paymentId] as const;
}
