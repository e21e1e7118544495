import {
  API_ROUTES,
  type GeneratedVoucherBatch,
  type Page,
  type Plan,
  type PlanSearchRequest,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherFunding,
} from '@kupa/proto';
import { apiErrorOf, fetchWithSession, httpClient } from '../providers/http-client';

/** The console's calls for prepaid vouchers (docs/adr/0089-prepaid-vouchers.md); admins only. */
export const vouchersApi = {
  list: async (signal?: AbortSignal): Promise<VoucherBatchList> =>
    (await httpClient<VoucherBatchList>(API_ROUTES.voucherBatches, { signal })).json,
  /** What a batch's codes give: money (`amount` each) or days of a package (ADR 0089). */
  generate: async (
    request:
      | { label: string; count: number; amount: number }
      | { label: string; count: number; kind: 'DAYS'; days: number; planId: string },
  ): Promise<GeneratedVoucherBatch> =>
    (
      await httpClient<GeneratedVoucherBatch>(API_ROUTES.voucherBatches, {
        method: 'POST',
        body: JSON.stringify(request),
      })
    ).json,
  /** `amount`: what a sold day batch brought in (its sale is booked as subscription revenue); undefined otherwise. */
  fund: async (batchId: string, funding: VoucherFunding, comment: string, amount?: number): Promise<VoucherBatch> =>
    (
      await httpClient<VoucherBatch>(API_ROUTES.voucherBatchFunding(batchId), {
        method: 'POST',
        body: JSON.stringify(amount === undefined ? { funding, comment } : { funding, comment, amount }),
      })
    ).json,
  /** The packages on sale, by name: what a day batch may give days of (the API refuses any other). */
  packagesOnSale: async (signal?: AbortSignal): Promise<Plan[]> => {
    const request: PlanSearchRequest = {
      statuses: ['ACTIVE'],
      page: 0,
      size: 100,
      sorts: [{ id: 'name', desc: false }],
    };
    const { json } = await httpClient<Page<Plan>>(API_ROUTES.paymentPlansSearch, {
      method: 'POST',
      body: JSON.stringify(request),
      signal,
    });
    return json.content;
  },
  /** The batch's codes as the server writes them (sealed codes opened on request); saved as a file by the browser. */
  downloadCodes: async (batchId: string): Promise<void> => {
    const { response, refreshAttempted } = await fetchWithSession(API_ROUTES.voucherBatchCodesCsv(batchId));
    if (!response.ok) throw await apiErrorOf(response, refreshAttempted);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `vouchers-${batchId}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  },
};
