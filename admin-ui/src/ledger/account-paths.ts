/** The console route of the account history page (a custom route, not a resource). */
export const ACCOUNT_HISTORY_PATH = '/ledger/history';

/**
 * The history page of one ledger account, e.g. `user:{uuid}` from a client's detail, optionally at a given instant
 * (following a posting to its counter-account keeps looking at the same moment).
 */
export function accountHistoryPath(account: string, asOf?: string): string {
  const params = new URLSearchParams({ account });
  if (asOf) params.set('asOf', asOf);
  return `${ACCOUNT_HISTORY_PATH}?${params.toString()}`;
}
