import { csvLine, UTF8_BOM } from '../../../ledger';
import type { TargetResultRow } from '../../infrastructure/bulk-batches.store';

/** One line per frozen target, in order: what happened to it, with the ledger's spreadsheet-safe cells. */
export function bulkResultsCsv(rows: readonly TargetResultRow[]): string {
  const lines = [csvLine(['target', 'label', 'outcome', 'result', 'error', 'settledAt'])];
  for (const row of rows) {
    lines.push(
      csvLine([
        row.target_id,
        row.label,
        row.outcome ?? 'PENDING',
        row.result_ref,
        row.error,
        row.settled_at?.toISOString() ?? null,
      ]),
    );
  }
  return UTF8_BOM + lines.join('');
}
