import type { DataSource } from 'typeorm';

/** Prepaid vouchers for the dashboard (docs/adr/0089-prepaid-vouchers.md), in cents. */
export interface VoucherFigures {
  /**
   * What every funded batch still owes: its unredeemed codes' worth. `kupa ledger verify` checks that this is the
   * balance of `liability:vouchers`; it is read from `voucher_batches` (a row per batch) rather than summed over the
   * account's ledger entries, which grow with every redemption.
   */
  outstandingMinor: number;
  /** The worth of the batches given away (funded from `expense:promo`) within the period. */
  givenAwayMinor: number;
}

/** `from` inclusive, `until` exclusive. */
export async function voucherFigures(
  db: Pick<DataSource, 'query'>,
  { from, until }: { from: Date; until: Date },
): Promise<VoucherFigures> {
  const rows = (await db.query(
    `SELECT coalesce(sum((count - redeemed_count) * amount_minor) FILTER (WHERE funding IS NOT NULL), 0)::text
              AS outstanding_minor,
            coalesce(sum(count * amount_minor)
              FILTER (WHERE funding = 'GIVEN_AWAY' AND funded_at >= $1 AND funded_at < $2), 0)::text AS given_away_minor
       FROM voucher_batches`,
    [from.toISOString(), until.toISOString()],
  )) as Array<{ outstanding_minor: string; given_away_minor: string }>;
  return { outstandingMinor: Number(rows[0].outstanding_minor), givenAwayMinor: Number(rows[0].given_away_minor) };
}
