import type { IsoDateTime } from './payloads';

/*
 * A client's claim that they sent a manual (bank) transfer (docs/adr/0112-manual-transfer-claims.md): a tracked fact
 * staff settle by recording the manual deposit for it, or reject with a reason. A claim never moves money: only the
 * staff's manual deposit does, so the ledger stays the truth. All of a client's claims share one stream,
 * `deposit-claims-{userUuid}`, so the limit on open claims is decided under that stream's lock.
 */

export const DEPOSIT_CLAIM_EVENT_TYPES = Object.freeze({
  manualTransferClaimed: 'ManualTransferClaimed',
  manualTransferClaimSettled: 'ManualTransferClaimSettled',
  manualTransferClaimRejected: 'ManualTransferClaimRejected',
} as const);

export type DepositClaimEventType = (typeof DEPOSIT_CLAIM_EVENT_TYPES)[keyof typeof DEPOSIT_CLAIM_EVENT_TYPES];

export const DEPOSIT_CLAIM_STREAM_PREFIX = 'deposit-claims-';

export function depositClaimsStreamId(userUuid: string): string {
  return `${DEPOSIT_CLAIM_STREAM_PREFIX}${userUuid}`;
}

export const DEPOSIT_CLAIM_STATUSES = ['OPEN', 'SETTLED', 'REJECTED'] as const;
export type DepositClaimStatus = (typeof DEPOSIT_CLAIM_STATUSES)[number];

export const DEPOSIT_CLAIM_LIMITS = Object.freeze({
  /** A client waits on at most this many open claims; one more is refused until staff settle or reject one. */
  openPerClientMax: 5,
});

/** The client says they sent `amountMinor` by bank transfer with their profile ID as the reference. */
export interface ManualTransferClaimedData {
  claimId: string;
  userUuid: string;
  amountMinor: number;
  currency: 'USD';
  /** The client's profile ID, the reference they were told to write on the transfer. */
  reference: string;
  note: string | null;
  claimedAt: IsoDateTime;
}

/** Staff recorded the manual deposit for the claim (the deposit's own events move the money). */
export interface ManualTransferClaimSettledData {
  claimId: string;
  userUuid: string;
  paymentId: number;
  settledAt: IsoDateTime;
}

/** Staff found no such transfer, or not as claimed. */
export interface ManualTransferClaimRejectedData {
  claimId: string;
  userUuid: string;
  reasonText: string;
  rejectedAt: IsoDateTime;
}

export interface DepositClaimEventDataByType {
  ManualTransferClaimed: ManualTransferClaimedData;
  ManualTransferClaimSettled: ManualTransferClaimSettledData;
  ManualTransferClaimRejected: ManualTransferClaimRejectedData;
}

export type DepositClaimEvent = {
  [Type in DepositClaimEventType]: { type: Type; data: DepositClaimEventDataByType[Type] };
}[DepositClaimEventType];

/** A claim as the client and staff read it. */
export interface DepositClaim {
  claimId: string;
  userUuid: string;
  amount: number;
  currency: 'USD';
  reference: string;
  note: string | null;
  status: DepositClaimStatus;
  paymentId: number | null;
  reasonText: string | null;
  claimedAt: IsoDateTime;
  closedAt: IsoDateTime | null;
  /** Staff only: the client's name as they entered it. */
  clientName?: string;
}

export interface DepositClaimRequest {
  amount: number;
  note?: string;
}

export interface DepositClaimRejectionRequest {
  reason: string;
}
