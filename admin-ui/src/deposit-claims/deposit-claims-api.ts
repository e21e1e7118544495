import { API_ROUTES, type DepositClaim, type Payment } from '@kupa/proto';
import { httpClient } from '../providers/http-client';

/** The console's calls for manual-transfer claims (docs/adr/0112-manual-transfer-claims.md). */
export const depositClaimsApi = {
  /** Every client's claims, open first (oldest waiting first), each with the client's name. */
  list: async (signal?: AbortSignal): Promise<DepositClaim[]> =>
    (await httpClient<DepositClaim[]>(API_ROUTES.depositClaims, { signal })).json,
  /** The manual deposit that settles the claim, in one append; the key books a retried submission once. */
  settle: async (claim: DepositClaim, amount: number, comment: string, idempotencyKey: string): Promise<Payment> =>
    (
      await httpClient<Payment>(API_ROUTES.payments, {
        method: 'POST',
        headers: { 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify({ userUuid: claim.userUuid, action: 'DEPOSIT', amount, comment, claimId: claim.claimId }),
      })
    ).json,
  reject: async (claimId: string, reason: string): Promise<void> => {
    await httpClient(API_ROUTES.depositClaimRejection(claimId), {
      method: 'POST',
      body: JSON.stringify({ reason }),
    });
  },
};
