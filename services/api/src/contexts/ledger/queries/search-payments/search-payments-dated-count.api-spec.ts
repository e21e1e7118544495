import { LIMITS } from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { paymentIds, searchPayments, seedPaymentRows } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/**
 * A keyword within picked dates counts its matches among the range's newest `LIMITS.keywordDatedCountPayments`
 * payments only, and says when the total is a lower bound (docs/adr/0125-dated-keyword-count-walks-a-budget.md). The
 * seeded rows (2024-01-01 plus `g` seconds, numbered 1000000 + g) outnumber that budget by 5,000.
 */
describe('payments search: a keyword within dates counts the range’s newest payments', () => {
  let testApp: TestApp;
  let admin: string;
  const seeded = LIMITS.keywordDatedCountPayments + 5_000;
  const dated = { createdDate: { from: '2024-01-01' } };
  /** The seeded row number `g` has payment id 1000000 + g. */
  const seededId = (g: number) => 1_000_000 + g;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    const crowd = await createActiveUser(testApp);
    await seedPaymentRows(testApp, seeded, crowd.userUuid, crowd.email);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (body: Record<string, unknown>) => searchPayments(testApp, admin, body);

  it('counts the matches among the newest payments of a longer range and flags the total as a lower bound', async () => {
    // "seeded row 3" is rows 3, 30…39, 300…399, 3000…3999 and 30000…35000: 6,112 rows, of which only the 5,001
    // of 30000…35000 are among the newest 30,000 (rows 5001…35000).
    const first = await search({ keyWord: 'seeded row 3', ...dated, size: 100 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalElements: 5_001, totalPages: 51, totalIsLowerBound: true });
    expect(paymentIds(first)[0]).toBe(seededId(35_000));
    // A full page beyond what was counted still lists, and the total says at least as far as it.
    const deep = await search({ keyWord: 'seeded row 3', ...dated, size: 100, page: 55 });
    expect(paymentIds(deep)).toEqual(Array.from({ length: 100 }, (_, index) => seededId(3_500 - index)));
    expect(deep.body).toMatchObject({ totalElements: 5_600, totalIsLowerBound: true });
    // The last page is not full: it tells the exact total, as every such page does.
    const last = await search({ keyWord: 'seeded row 3', ...dated, size: 100, page: 61 });
    expect(paymentIds(last)).toHaveLength(12);
    expect(last.body.totalElements).toBe(6_112);
    expect(last.body).not.toHaveProperty('totalIsLowerBound');
  });

  it('counts exactly a range that holds no more than the budget, and the search window is no lower bound', async () => {
    // Rows 1…18000: 1,111 of them say "seeded row 3".
    const within = await search({
      keyWord: 'seeded row 3',
      createdDate: { from: '2024-01-01T00:00:00Z', to: '2024-01-01T05:00:00Z' },
      size: 100,
    });
    expect(within.body.totalElements).toBe(1_111);
    expect(within.body).not.toHaveProperty('totalIsLowerBound');
    // Every row matches: the count stops at the search window (ADR 0010), which says what it always said.
    const every = await search({ keyWord: 'seeded row', ...dated, size: 100 });
    expect(every.body.totalElements).toBe(LIMITS.searchWindowRows);
    expect(every.body).not.toHaveProperty('totalIsLowerBound');
    // Without dates the search is bounded to the latest 25,000 payments (rows 10001…35000), and never flagged.
    const recent = await search({ keyWord: 'seeded row 3', size: 100 });
    expect(recent.body.totalElements).toBe(5_001);
    expect(recent.body).not.toHaveProperty('totalIsLowerBound');
  });
});
