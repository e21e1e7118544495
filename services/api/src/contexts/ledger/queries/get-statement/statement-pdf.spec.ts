import type { AccountStatement, StatementLine } from '@kupa/proto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statementPdf } from './statement-pdf';

const OPERATOR = { name: 'Kupa Ltd', address: '1 Herzl St, Tel Aviv', taxId: '514000000' };
const HOLDER = { firstName: 'Dana', lastName: 'Levi', email: 'dana@example.com' };

/** A statement of `count` deposits of $1.00 each, an hour apart, from an opening balance of $10.00. */
function longStatement(count: number): AccountStatement {
  const from = Date.parse('2026-01-01T00:00:00Z');
  const lines: StatementLine[] = Array.from({ length: count }, (_, index) => ({
    occurredAt: new Date(from + (index + 1) * 3_600_000).toISOString(),
    paymentId: index + 1,
    eventType: 'ManualDepositRecorded',
    description: `Payment \u2066#${index + 1}\u2069: manual deposit`,
    amount: 1,
    balanceAfter: 10 + index + 1,
  }));
  return {
    userUuid: '6f1d2c3b-4a59-4e68-8d7c-9b0a1f2e3d4c',
    account: 'user:6f1d2c3b-4a59-4e68-8d7c-9b0a1f2e3d4c',
    from: new Date(from).toISOString(),
    to: new Date(from + (count + 1) * 3_600_000).toISOString(),
    language: 'en',
    openingBalance: 10,
    closingBalance: 10 + count,
    creditsTotal: count,
    debitsTotal: 0,
    lines,
  };
}

/** The text of each page of a PDF as poppler-utils extracts it (pages are cut by form feeds). */
function pagesOf(pdf: Buffer): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'kupa-statement-'));
  try {
    const file = join(folder, 'statement.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-'], { encoding: 'utf8' })
      .split('\f')
      .filter((page) => page.trim() !== '');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('statementPdf (ADR 0096)', () => {
  it('paginates the largest statement, repeating the table header and the operator on every page', async () => {
    const statement = longStatement(5_000);
    const pages = pagesOf(await statementPdf(statement, HOLDER, 'UTC', OPERATOR, new Date('2026-08-01T00:00:00Z')));
    expect(pages.length).toBeGreaterThan(50);
    for (const page of pages) {
      expect(page).toMatch(/Date \(UTC\)\s+Description\s+Amount\s+Balance/);
      expect(page).toContain('Tax ID 514000000');
    }
    // Every posting is there once, the last one with the closing balance.
    const all = pages.join('\n');
    expect(all.match(/manual deposit/g)).toHaveLength(5_000);
    expect(all).toMatch(/Payment #5000: manual deposit\s+\+\$1\.00\s+\$5,010\.00/);
  }, 60_000);

  it('says so when the period has no postings, instead of an empty table', async () => {
    const pages = pagesOf(
      await statementPdf(longStatement(0), HOLDER, 'UTC', OPERATOR, new Date('2026-08-01T00:00:00Z')),
    );
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('No postings in this period.');
    expect(pages[0]).not.toContain('Description');
  });
});
