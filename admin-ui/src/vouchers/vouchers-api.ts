import {
  API_ROUTES,
  type GeneratedVoucherBatch,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherFunding,
} from '@kupa/proto';
import { apiErrorOf, fetchWithSession, httpClient } from '../providers/http-client';

/** The console's calls for prepaid vouchers (docs/adr/0089-prepaid-vouchers.md); admins only. */
export const vouchersApi = {
  list: async (signal?: AbortSignal): Promise<VoucherBatchList> =>
    (await httpClient<VoucherBatchList>(API_ROUTES.voucherBatches, { signal })).json,
  generate: async (request: { label: string; count: number; amount: number }): Promise<GeneratedVoucherBatch> =>
    (
      await httpClient<GeneratedVoucherBatch>(API_ROUTES.voucherBatches, {
        method: 'POST',
        body: JSON.stringify(request),
      })
    ).json,
  fund: async (batchId: string, funding: VoucherFunding, comment: string): Promise<VoucherBatch> =>
    (
      await httpClient<VoucherBatch>(API_ROUTES.voucherBatchFunding(batchId), {
        method: 'POST',
        body: JSON.stringify({ funding, comment }),
      })
    ).json,
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
