import { type BulkAction, type BulkBatch, type BulkBatchList, type BulkPreview } from '@kupa/proto';
import { apiErrorOf, fetchWithSession, httpClient } from '../providers/http-client';

const BASE = '/bulk-operations';

/** What the admin chose: the action, its targets' filter (empty: every active one) and what the action needs. */
export interface BulkRequest {
  action: BulkAction;
  filter?: Record<string, unknown>;
  subscriptionFilter?: Record<string, unknown>;
  reason?: string;
  publicNote?: string;
  amount?: number;
  days?: number;
}

/** The console's calls for bulk operations (docs/adr/0090-bulk-operations.md); admins only. */
export const bulkOperationsApi = {
  list: async (): Promise<BulkBatchList> => (await httpClient<BulkBatchList>(BASE)).json,
  get: async (id: string): Promise<BulkBatch> => (await httpClient<BulkBatch>(`${BASE}/${id}`)).json,
  preview: async (request: BulkRequest): Promise<BulkPreview> =>
    (
      await httpClient<BulkPreview>(`${BASE}/preview`, {
        method: 'POST',
        body: JSON.stringify({
          action: request.action,
          filter: request.filter,
          subscriptionFilter: request.subscriptionFilter,
        }),
      })
    ).json,
  /** The key makes a double click start one batch. */
  start: async (request: BulkRequest, idempotencyKey: string): Promise<BulkBatch> =>
    (
      await httpClient<BulkBatch>(BASE, {
        method: 'POST',
        body: JSON.stringify(request),
        headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
      })
    ).json,
  downloadResults: async (id: string): Promise<void> => {
    const { response, refreshAttempted } = await fetchWithSession(`${BASE}/${id}/results.csv`);
    if (!response.ok) throw await apiErrorOf(response, refreshAttempted);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = `bulk-${id}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  },
};
