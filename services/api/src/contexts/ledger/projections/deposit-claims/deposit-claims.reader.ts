import { Injectable } from '@nestjs/common';
import { type DepositClaim, type DepositClaimStatus, minorToAmount } from '@kupa/proto';
import { DataSource } from 'typeorm';

interface DepositClaimRow {
  claim_id: string;
  user_uuid: string;
  amount_minor: string;
  currency: 'USD';
  reference: string;
  note: string | null;
  status: DepositClaimStatus;
  payment_id: string | null;
  reason_text: string | null;
  claimed_at: Date;
  closed_at: Date | null;
}

/** At most this many claims in one answer: a client has few, and staff work the open ones first. */
export const DEPOSIT_CLAIMS_LIST_MAX = 100;

function claimOf(row: DepositClaimRow): DepositClaim {
  return {
    claimId: row.claim_id,
    userUuid: row.user_uuid,
    amount: minorToAmount(Number(row.amount_minor)),
    currency: row.currency,
    reference: row.reference,
    note: row.note,
    status: row.status,
    paymentId: row.payment_id === null ? null : Number(row.payment_id),
    reasonText: row.reason_text,
    claimedAt: row.claimed_at.toISOString(),
    closedAt: row.closed_at ? row.closed_at.toISOString() : null,
  };
}

@Injectable()
export class DepositClaimsReader {
  constructor(private readonly dataSource: DataSource) {}

  /** A client's own claims, newest first. */
  async ofClient(userUuid: string): Promise<DepositClaim[]> {
    const rows: DepositClaimRow[] = await this.dataSource.query(
      'SELECT * FROM deposit_claims WHERE user_uuid = $1 ORDER BY claimed_at DESC LIMIT $2',
      [userUuid, DEPOSIT_CLAIMS_LIST_MAX],
    );
    return rows.map(claimOf);
  }

  /** Every client's claims for staff: open first (oldest waiting first), then the closed ones, newest first. */
  async forStaff(status: DepositClaimStatus | null): Promise<DepositClaim[]> {
    const rows: DepositClaimRow[] = await this.dataSource.query(
      `SELECT c.* FROM deposit_claims c
        WHERE $1::text IS NULL OR c.status = $1
        ORDER BY (c.status = 'OPEN') DESC,
                 CASE WHEN c.status = 'OPEN' THEN c.claimed_at END ASC,
                 c.claimed_at DESC
        LIMIT $2`,
      [status, DEPOSIT_CLAIMS_LIST_MAX],
    );
    return rows.map(claimOf);
  }

  /** Whose claim it is, or null for none. */
  async ownerOf(claimId: string): Promise<{ userUuid: string; amountMinor: number } | null> {
    const rows: Array<{ user_uuid: string; amount_minor: string }> = await this.dataSource.query(
      'SELECT user_uuid, amount_minor FROM deposit_claims WHERE claim_id = $1',
      [claimId],
    );
    return rows[0] ? { userUuid: rows[0].user_uuid, amountMinor: Number(rows[0].amount_minor) } : null;
  }
}
