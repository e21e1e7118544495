import { type LedgerVerification, LedgerVerifier } from '../operations/verify';
import { InlineProjectionRegistry } from '../platform/projections';
import type { TestApp } from './test-app';

/**
 * What `kupa ledger verify` checks, on the test app's database: hash chains, the ledger against its replay, and every
 * replay-checked read model against a replay of all events. Expects no difference; returns the report for the counts.
 */
export async function expectLedgerVerifyOk(testApp: TestApp): Promise<LedgerVerification> {
  const verification = await new LedgerVerifier(testApp.dataSource, testApp.app.get(InlineProjectionRegistry)).verify();
  expect(verification.differences).toEqual([]);
  expect(verification.ok).toBe(true);
  return verification;
}
