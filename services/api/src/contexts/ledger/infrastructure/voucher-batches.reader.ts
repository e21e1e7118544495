import { minorToAmount, type VoucherBatch, type VoucherFunding, type VoucherKind } from '@kupa/proto';
import type { EntityManager } from 'typeorm';

interface VoucherBatchRow {
  id: string;
  label: string;
  kind: VoucherKind;
  count: number;
  amount_minor: string;
  days: number | null;
  plan_id: string | null;
  plan_name: string | null;
  funding: VoucherFunding | null;
  funded_at: Date | null;
  funding_comment: string | null;
  redeemed_count: number;
  created_at: Date;
  created_by: string | null;
}

/**
 * What a batch still owes in money: its unredeemed codes once funded, none for a DAYS batch (the same rule as the
 * decider's `outstandingMinor`).
 */
function outstandingMinorOf(row: VoucherBatchRow): number {
  return row.funding === null || row.kind === 'DAYS' ? 0 : (row.count - row.redeemed_count) * Number(row.amount_minor);
}

function batchPayload(row: VoucherBatchRow): VoucherBatch {
  return {
    id: row.id,
    label: row.label,
    kind: row.kind,
    count: row.count,
    amount: minorToAmount(Number(row.amount_minor)),
    days: row.days,
    planId: row.plan_id,
    planName: row.plan_name,
    funding: row.funding,
    fundedAt: row.funded_at ? row.funded_at.toISOString() : null,
    fundingComment: row.funding_comment,
    redeemedCount: row.redeemed_count,
    outstanding: minorToAmount(outstandingMinorOf(row)),
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}

/** Every batch, newest first, with what all of them still owe. */
export async function listVoucherBatches(
  manager: EntityManager,
): Promise<{ items: VoucherBatch[]; outstandingTotalMinor: number }> {
  const rows: VoucherBatchRow[] = await manager.query('SELECT * FROM voucher_batches ORDER BY created_at DESC, id');
  return {
    items: rows.map(batchPayload),
    outstandingTotalMinor: rows.reduce((sum, row) => sum + outstandingMinorOf(row), 0),
  };
}

export async function findVoucherBatch(manager: EntityManager, batchId: string): Promise<VoucherBatch | null> {
  const rows: VoucherBatchRow[] = await manager.query('SELECT * FROM voucher_batches WHERE id = $1', [batchId]);
  return rows.length === 0 ? null : batchPayload(rows[0]);
}

/** Who redeemed which code of a batch, by code index: for the export. */
export async function redemptionsOf(
  manager: EntityManager,
  batchId: string,
): Promise<Map<number, { userEmail: string | null; redeemedAt: string }>> {
  const rows: Array<{ code_index: number; email: string | null; redeemed_at: Date }> = await manager.query(
    `SELECT r.code_index, p.user_email AS email, r.redeemed_at FROM voucher_redemptions r
       LEFT JOIN payments p ON p.payment_id = r.payment_id
     WHERE r.batch_id = $1`,
    [batchId],
  );
  return new Map(
    rows.map((row) => [row.code_index, { userEmail: row.email, redeemedAt: row.redeemed_at.toISOString() }]),
  );
}
