import { LIMITS, type Payment } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import {
  paymentIds,
  searchPayments,
  manualPayment,
  seedPaymentRows,
} from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/**
 * A keyword over every client's payments without dates looks at the newest `LIMITS.keywordSearchRecentPayments`
 * payment numbers only (docs/adr/0115-keyword-searches-look-at-the-latest-payments.md). The seeded rows (dated from
 * 2024-01-01, one a second, numbered from 1000001) are newer than the one real payment, booked in 2023, and
 * outnumber the bound by 20.
 */
describe('payments search: a keyword without dates looks at the latest payments', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2023-06-01T09:00:00Z'));
  let admin: string;
  let owner: ActiveUser;
  let ancient: Payment;
  const seeded = LIMITS.keywordSearchRecentPayments + 20;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    owner = await createActiveUser(testApp, { firstName: 'Yael' });
    ancient = await manualPayment(testApp, admin, owner.userUuid, 25, 'Ancient cheque');
    const crowd = await createActiveUser(testApp);
    await seedPaymentRows(testApp, seeded, crowd.userUuid, crowd.email);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (token: string, body: Record<string, unknown>, userUuid?: string) =>
    searchPayments(testApp, token, body, userUuid);
  const ids = paymentIds;
  /** The seeded row number `g` (`seeded row g` in its comment) has payment id 1000000 + g. */
  const seededId = (g: number) => 1_000_000 + g;

  it('leaves out what is older than the newest payments, and counts only within them', async () => {
    const missing = await search(admin, { keyWord: 'Ancient cheque' });
    expect(missing.status).toBe(200);
    expect(missing.body.totalElements).toBe(0);

    // "seeded row 15" is rows 15, 150…159, 1500…1599 and 15000…15999: 1,111 rows, of which row 15 is among the 21
    // oldest (the real payment and seeded rows 1 to 20), beyond the bound.
    const recent = await search(admin, { keyWord: 'seeded row 15', size: 100 });
    expect(recent.body.totalElements).toBe(1110);
    expect(ids(recent)[0]).toBe(seededId(15999));
    const newest = await search(admin, { keyWord: `seeded row ${seeded}` });
    expect(ids(newest)).toEqual([seededId(seeded)]);
  });

  it('counts a keyword matching more than the bound within it, at most the search window, as the page lists', async () => {
    // "seeded row" is in every seeded row: the whole bound, so the count stops at the search window (ADR 0010).
    const every = await search(admin, { keyWord: 'seeded row', size: 100 });
    expect(every.body.totalElements).toBe(LIMITS.searchWindowRows);
    expect(ids(every)[0]).toBe(seededId(seeded));
    const lastPage = LIMITS.searchWindowRows / 100 - 1;
    const last = await search(admin, { keyWord: 'seeded row', size: 100, page: lastPage });
    expect(last.body.totalElements).toBe(LIMITS.searchWindowRows);
    expect(ids(last).at(-1)).toBe(seededId(seeded - LIMITS.searchWindowRows + 1));
    const beyond = await search(admin, { keyWord: 'seeded row', size: 100, page: lastPage + 1 });
    expect(beyond.body.content).toEqual([]);
    expect(beyond.body.totalElements).toBe(LIMITS.searchWindowRows);
  });

  it('gives the same total on every page, the one not full and the empty one after it included', async () => {
    // Within the bound "seeded row 15" is rows 15999…15000, 1599…1500, 159…150, newest first: the 12th page of 100
    // holds the last ten, and the 13th none, with the total of the first.
    const first = await search(admin, { keyWord: 'seeded row 15', size: 100 });
    const partial = await search(admin, { keyWord: 'seeded row 15', size: 100, page: 11 });
    expect(ids(partial)).toEqual(Array.from({ length: 10 }, (_, index) => seededId(159 - index)));
    const after = await search(admin, { keyWord: 'seeded row 15', size: 100, page: 12 });
    expect(after.body.content).toEqual([]);
    expect([first, partial, after].map((answer) => answer.body.totalElements)).toEqual([1110, 1110, 1110]);
    // Fewer matches than a page: rows 1500 and 15000…15009.
    const few = await search(admin, { keyWord: 'seeded row 1500', size: 20 });
    expect(few.body.totalElements).toBe(11);
    expect(ids(few)).toEqual([...Array.from({ length: 10 }, (_, index) => seededId(15009 - index)), seededId(1500)]);
    // With a filter the count filters as the page does: no seeded row is pending.
    const pending = await search(admin, { keyWord: 'seeded row', statuses: ['PENDING'] });
    expect(pending.body).toMatchObject({ content: [], totalElements: 0 });
  });

  it('looks at every payment once dates are picked, either end alone included', async () => {
    const from = await search(admin, { keyWord: 'Ancient cheque', createdDate: { from: '2023-01-01' } });
    expect(ids(from)).toEqual([ancient.paymentId]);
    const to = await search(admin, { keyWord: 'ancient', createdDate: { to: '2023-06-01' } });
    expect(ids(to)).toEqual([ancient.paymentId]);
    const all = await search(admin, { keyWord: 'seeded row 15', createdDate: { from: '2023-01-01' } });
    expect(all.body.totalElements).toBe(1111);
  });

  it('counts a keyword within picked dates by walking a small range, as the trigram path counts (ADR 0123)', async () => {
    // The seeded rows' range holds fewer rows than LIMITS.keywordDatedCountPayments: the count walks it all (ADR 0125).
    const dated = { createdDate: { from: '2024-01-01' } };
    const every = await search(admin, { keyWord: 'seeded row', ...dated, size: 100 });
    expect(every.body.totalElements).toBe(LIMITS.searchWindowRows);
    expect(ids(every)[0]).toBe(seededId(seeded));
    const some = await search(admin, { keyWord: 'seeded row 15', ...dated, size: 100 });
    expect(some.body.totalElements).toBe(1111);
    const partial = await search(admin, { keyWord: 'seeded row 15', ...dated, size: 100, page: 11 });
    expect(partial.body.totalElements).toBe(1111);
    expect(ids(partial)).toHaveLength(11);
    const after = await search(admin, { keyWord: 'seeded row 15', ...dated, size: 100, page: 12 });
    expect(after.body).toMatchObject({ content: [], totalElements: 1111 });
    // A to-date alone, and both ends: the rows of 2024-01-01 (the first 86,400 seconds hold every seeded row).
    const until = await search(admin, { keyWord: 'seeded row 15', createdDate: { to: '2024-01-01' } });
    expect(until.body.totalElements).toBe(1111);
    const pending = await search(admin, { keyWord: 'seeded row', ...dated, statuses: ['PENDING'] });
    expect(pending.body).toMatchObject({ content: [], totalElements: 0 });
  });

  it('lists the latest payments newest first whatever the sort or filter (the page walks the bound, ADR 0123)', async () => {
    const byAmount = await search(admin, {
      keyWord: 'seeded row 1500',
      sorts: [{ id: 'amount', desc: false }],
      size: 20,
    });
    expect(byAmount.body.totalElements).toBe(11);
    const deposits = await search(admin, { keyWord: 'seeded row 1500', types: ['DEPOSIT'], size: 5 });
    expect(ids(deposits)).toEqual(Array.from({ length: 5 }, (_, index) => seededId(15009 - index)));
    expect(deposits.body.totalElements).toBe(11);
  });

  it("does not bound one client's rows, a whole e-mail address or a payment id", async () => {
    const tab = await search(admin, { keyWord: 'ancient' }, owner.userUuid);
    expect(ids(tab)).toEqual([ancient.paymentId]);
    const byEmail = await search(admin, { keyWord: owner.email });
    expect(ids(byEmail)).toEqual([ancient.paymentId]);
    const byId = await search(admin, { keyWord: 'cheque', id: ancient.paymentId });
    expect(ids(byId)).toEqual([ancient.paymentId]);
    // The client's own portal: their keyword matches what they see (the payment number here), over their rows alone.
    const own = await search(owner.accessToken, { keyWord: String(ancient.paymentId) });
    expect(ids(own)).toEqual([ancient.paymentId]);
  });

  it('refuses a keyword of fewer than three characters over every client, unless it is a payment number', async () => {
    for (const body of [{ keyWord: 'q' }, { keyWord: ' an ', createdDate: { from: '2023-01-01' } }]) {
      const short = await search(admin, body);
      expect(short.status).toBe(400);
      expect(short.body.details.fields).toEqual([
        { field: 'keyWord', error: 'error.validation.min.length', params: { min: LIMITS.keywordMinLength } },
      ]);
    }
    const exported = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ keyWord: 'q' });
    expect(exported.status).toBe(400);
    // Digits are that payment number, exactly, however old: the real payment is one of the first of a fresh database.
    expect(ancient.paymentId).toBeLessThan(100);
    const byNumber = await search(admin, { keyWord: String(ancient.paymentId) });
    expect(ids(byNumber)).toEqual([ancient.paymentId]);
    // One client's rows take any keyword, as a substring.
    expect(ids(await search(admin, { keyWord: 'q' }, owner.userUuid))).toEqual([ancient.paymentId]);
  });

  it('refuses a date range whose start is after its end, in the search and the export', async () => {
    const reversed = { keyWord: 'ancient', createdDate: { from: '2023-06-02', to: '2023-06-01' } };
    const answer = await search(admin, reversed);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'error.validation.failed',
      details: { fields: [{ field: 'createdDate.to', error: 'error.validation.range.reversed' }] },
    });
    const exported = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send(reversed);
    expect(exported.status).toBe(400);
    // One whole day (a date without a time covers it) and one instant are ranges, not reversed ones.
    const oneDay = await search(admin, { keyWord: 'ancient', createdDate: { from: '2023-06-01', to: '2023-06-01' } });
    expect(ids(oneDay)).toEqual([ancient.paymentId]);
    const instant = new Date(ancient.createdAt).toISOString();
    const sameInstant = await search(admin, { keyWord: 'ancient', createdDate: { from: instant, to: instant } });
    expect(ids(sameInstant)).toEqual([ancient.paymentId]);
  });
});
