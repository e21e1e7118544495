import { useQuery } from '@tanstack/react-query';
import { API_ROUTES, type Receipt, type ReceiptList } from '@kupa/proto';
import { api, apiDownload } from '../../lib/api/api-client';

/** The client's own receipts (docs/product.md, Receipts): another's answers 404. */
export const receiptsApi = {
  list: () => api.get<ReceiptList>(API_ROUTES.receipts),
  get: (number: number) => api.get<Receipt>(API_ROUTES.receipt(number)),
  pdf: (number: number, language: string) => apiDownload(API_ROUTES.receiptPdf(number), language),
};

export const RECEIPTS_QUERY_KEY = ['receipts'] as const;

/**
 * The client's receipts, newest first. A receipt follows its payment by a moment, so a fresh list is asked for. A
 * failure is the screen's to explain (the list shows it; a payment's page simply shows no receipt), never a toast.
 */
export function useReceipts() {
  return useQuery({
    queryKey: RECEIPTS_QUERY_KEY,
    queryFn: () => receiptsApi.list(),
    staleTime: 0,
    meta: { silentError: true },
  });
}

export function useReceipt(number: number) {
  return useQuery({
    queryKey: [...RECEIPTS_QUERY_KEY, number],
    queryFn: () => receiptsApi.get(number),
    meta: { silentError: true },
  });
}
