import { LIMITS, type Payment, SORTABLE_COLUMNS } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import {
  paymentIds,
  searchPayments,
  manualPayment,
  seedPaymentRows,
  transfer,
} from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('payments search', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let omer: ActiveUser;
  let ambassador: ActiveUser;
  const made: Payment[] = [];

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    dana = await createActiveUser(testApp, { firstName: 'Dana' });
    omer = await createActiveUser(testApp, { firstName: 'Omer' });
    ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    clock.set(new Date('2026-03-02T10:00:00Z'));
    made.push(await manualPayment(testApp, admin, dana.userUuid, 100, 'Wire from Leumi'));
    clock.set(new Date('2026-03-03T10:00:00Z'));
    made.push(await manualPayment(testApp, admin, omer.userUuid, 40.5, 'Cash at the office'));
    clock.set(new Date('2026-03-04T10:00:00Z'));
    made.push(await transfer(testApp, dana.accessToken, omer.email, 12.25));
    clock.set(new Date('2026-03-05T10:00:00Z'));
    made.push(await manualPayment(testApp, admin, dana.userUuid, 5, 'Refund of a fee', 'WITHDRAW'));
    clock.set(new Date('2026-03-06T10:00:00Z'));
    made.push(await manualPayment(testApp, admin, ambassador.userUuid, 60, 'Ambassador top-up 50%_off'));
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (token: string, body: Record<string, unknown>, userUuid?: string) =>
    searchPayments(testApp, token, body, userUuid);
  const ids = paymentIds;

  it('shows admins every payment, newest first, with amounts in dollars', async () => {
    const all = await search(admin, { size: 100 });
    expect(all.status).toBe(200);
    const times = all.body.content.map((payment: Payment) => payment.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // A transfer is two payments (one per side); the ambassador's deposit may also have earned a bonus payment.
    expect(all.body.totalElements).toBeGreaterThanOrEqual(6);
    const deposit = all.body.content.find((payment: Payment) => payment.paymentId === made[1].paymentId);
    expect(deposit).toMatchObject({
      amount: 40.5,
      currency: 'USD',
      type: 'DEPOSIT',
      status: 'SUCCESS',
      method: 'MANUAL_TRANSFER',
      aggregator: 'MANUAL',
      userUuid: omer.userUuid,
      userEmail: omer.email,
      comment: 'Cash at the office',
      createdAt: '2026-03-03T10:00:00.000Z',
    });
    const sides = all.body.content.filter((payment: Payment) => payment.transferId === made[2].transferId);
    expect(sides.map((payment: Payment) => payment.type).sort()).toEqual(['TRANSFER_IN', 'TRANSFER_OUT']);
  });

  it('filters by type, status, method, aggregator, id and keyword', async () => {
    const transfers = await search(admin, { types: ['TRANSFER_IN', 'TRANSFER_OUT'] });
    expect(transfers.body.totalElements).toBe(2);
    const withdrawals = await search(admin, {
      types: ['WITHDRAW'],
      statuses: ['SUCCESS'],
      methods: ['MANUAL_TRANSFER'],
      aggregators: ['MANUAL'],
    });
    expect(ids(withdrawals)).toEqual([made[3].paymentId]);
    expect((await search(admin, { statuses: ['PENDING'] })).body.totalElements).toBe(0);
    expect((await search(admin, { aggregators: ['STRIPE'] })).body.totalElements).toBe(0);
    expect(ids(await search(admin, { id: made[1].paymentId }))).toEqual([made[1].paymentId]);

    // The keyword matches e-mail, comment and id, whatever the case; LIKE wildcards in it match literally.
    expect(ids(await search(admin, { keyWord: 'LEUMI' }))).toEqual([made[0].paymentId]);
    const byEmail = await search(admin, { keyWord: omer.email.toUpperCase() });
    expect(byEmail.body.content.every((payment: Payment) => payment.userEmail === omer.email)).toBe(true);
    expect(byEmail.body.totalElements).toBe(2);
    expect(ids(await search(admin, { keyWord: '50%_off' }))).toEqual([made[4].paymentId]);
    expect((await search(admin, { keyWord: '5_%off' })).body.totalElements).toBe(0);
    const byId = await search(admin, { keyWord: String(made[3].paymentId) });
    expect(ids(byId)).toContain(made[3].paymentId);
  });

  it('filters by an inclusive creation date range; a date without time covers that day', async () => {
    const exact = await search(admin, { createdDate: { from: '2026-03-03T10:00:00Z', to: '2026-03-05T10:00:00Z' } });
    expect(ids(exact)).toEqual(expect.arrayContaining([made[1].paymentId, made[2].paymentId, made[3].paymentId]));
    expect(exact.body.totalElements).toBe(4);
    const days = await search(admin, { createdDate: { from: '2026-03-03', to: '2026-03-03' } });
    expect(ids(days)).toEqual([made[1].paymentId]);
    const open = await search(admin, { createdDate: { to: '2026-03-02T10:00:00.000Z' } });
    expect(ids(open)).toEqual([made[0].paymentId]);
  });

  it('sorts by every offered column and pages without overlap', async () => {
    const byAmount = await search(admin, { size: 100, sorts: [{ id: 'amount', desc: false }] });
    const amounts = byAmount.body.content.map((payment: Payment) => payment.amount);
    expect(amounts).toEqual([...amounts].sort((left, right) => left - right));
    const oldest = await search(admin, { size: 100, sorts: [{ id: 'createdAt', desc: false }] });
    expect(oldest.body.content[0].paymentId).toBe(made[0].paymentId);
    const byId = await search(admin, { size: 100, sorts: [{ id: 'paymentId', desc: true }] });
    const paymentIds = ids(byId);
    expect(paymentIds).toEqual([...paymentIds].sort((left, right) => right - left));
    for (const id of SORTABLE_COLUMNS.payments) {
      const sorted = await search(admin, { size: 100, sorts: [{ id, desc: true }] });
      expect(sorted.status).toBe(200);
    }
    const emails = (await search(admin, { size: 100, sorts: [{ id: 'userEmail', desc: false }] })).body.content.map(
      (payment: Payment) => payment.userEmail,
    );
    expect(emails).toEqual([...emails].sort());

    const first = await search(admin, { size: 2, page: 0 });
    const second = await search(admin, { size: 2, page: 1 });
    const all = await search(admin, { size: 100 });
    expect([...ids(first), ...ids(second)]).toEqual(ids(all).slice(0, 4));
    expect(first.body).toMatchObject({
      page: 0,
      size: 2,
      totalElements: all.body.totalElements,
      totalPages: Math.ceil(all.body.totalElements / 2),
    });
    expect((await search(admin, { size: 2, page: 1000 })).body.content).toEqual([]);
  });

  it('shows clients and ambassadors only their own payments', async () => {
    const own = await search(dana.accessToken, { size: 100 });
    expect(own.status).toBe(200);
    expect(own.body.content.length).toBe(3);
    expect(own.body.content.every((payment: Payment) => payment.userUuid === dana.userUuid)).toBe(true);
    // Naming another user's payment id finds nothing rather than their row.
    expect((await search(dana.accessToken, { id: made[1].paymentId })).body.totalElements).toBe(0);
    expect(
      (await search(ambassador.accessToken, {})).body.content.every(
        (payment: Payment) => payment.userUuid === ambassador.userUuid,
      ),
    ).toBe(true);

    expect(ids(await search(dana.accessToken, { size: 100 }, dana.userUuid))).toEqual(ids(own));
    const other = await search(dana.accessToken, {}, omer.userUuid);
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('error.user.not.found');
    expect((await search(dana.accessToken, {}, 'not-a-uuid')).status).toBe(404);
  });

  it("lets staff read one user's payments; managers cannot list everyone's", async () => {
    const managers = await search(manager.accessToken, { size: 100 }, omer.userUuid);
    expect(managers.status).toBe(200);
    expect(managers.body.content.map((payment: Payment) => payment.userUuid)).toEqual([omer.userUuid, omer.userUuid]);
    expect((await search(admin, { types: ['TRANSFER_IN'] }, omer.userUuid)).body.totalElements).toBe(1);
    const refused = await search(manager.accessToken, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('error.access.forbidden');
    expect((await testApp.http.post('/api/payments/search').send({})).status).toBe(401);
  });

  it('refuses bad requests with catalogue codes', async () => {
    const tooBig = await search(admin, { size: 101 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error).toBe('error.validation.failed');
    expect(tooBig.body.details.fields).toContainEqual({
      field: 'size',
      error: 'error.validation.page.size',
      params: { max: 100 },
    });
    const badSort = await search(admin, { sorts: [{ id: 'comment', desc: false }] });
    expect(badSort.status).toBe(400);
    expect(badSort.body.details.fields).toContainEqual({
      field: 'sorts',
      error: 'error.validation.invalid.field',
      params: { id: 'comment' },
    });
    const badEnum = await search(admin, { statuses: ['PAID'] });
    expect(badEnum.status).toBe(400);
    expect(badEnum.body.details.fields[0]).toMatchObject({
      field: 'statuses',
      error: 'error.validation.invalid.field',
    });
    expect((await search(admin, { types: ['DEPOSIT', 'GIFT'] })).status).toBe(400);
    expect((await search(admin, { methods: ['CHEQUE'] })).status).toBe(400);
    expect((await search(admin, { aggregators: ['PAYPAL'] })).status).toBe(400);
    const badId = await search(admin, { id: 1.5 });
    expect(badId.status).toBe(400);
    expect(badId.body.details.fields).toContainEqual({ field: 'id', error: 'error.validation.integer' });
    expect((await search(admin, { id: '12' })).status).toBe(400);
    const longKeyword = await search(admin, { keyWord: 'x'.repeat(257) });
    expect(longKeyword.status).toBe(400);
    expect(longKeyword.body.details.fields).toContainEqual({
      field: 'keyWord',
      error: 'error.validation.max.length',
      params: { max: 256 },
    });
    expect((await search(admin, { keyWord: 'x'.repeat(256) })).status).toBe(200);
    expect((await search(admin, { createdDate: { from: 'last week' } })).status).toBe(400);
    const unknown = await search(admin, { userUuid: dana.userUuid });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fields).toContainEqual({ field: 'userUuid', error: 'error.validation.unknown.field' });
  });

  it('matches a keyword that is a whole e-mail address to exactly that address, and part of one as a substring', async () => {
    // An address that contains Omer's whole address: a substring match on Omer's would find this client's rows too.
    const lookalike = await createActiveUser(testApp, { email: `x${omer.email}` });
    const lookalikeDeposit = await manualPayment(testApp, admin, lookalike.userUuid, 7, 'Lookalike deposit');

    const exact = await search(admin, { keyWord: ` ${omer.email.toUpperCase()} `, size: 100 });
    expect(exact.body.totalElements).toBe(2);
    expect(exact.body.content.every((payment: Payment) => payment.userEmail === omer.email)).toBe(true);

    const partial = await search(admin, { keyWord: omer.email.split('@')[0], size: 100 });
    expect(ids(partial)).toContain(lookalikeDeposit.paymentId);
    expect(partial.body.content.some((payment: Payment) => payment.userEmail === omer.email)).toBe(true);

    // A client searching their own rows by their own address sees them all, and by another's sees none.
    const own = await search(lookalike.accessToken, { keyWord: lookalike.email });
    expect(ids(own)).toEqual([lookalikeDeposit.paymentId]);
    expect((await search(lookalike.accessToken, { keyWord: omer.email })).body.totalElements).toBe(0);
  });

  it('counts and pages within the search window, and says so by answering the window as the total', async () => {
    // Runs last: the seeded rows have no events behind them and would disturb the other cases.
    const crowd = await createActiveUser(testApp);
    await seedPaymentRows(testApp, LIMITS.searchWindowRows + 25, crowd.userUuid, crowd.email);
    const first = await search(admin, { keyWord: 'seeded row', size: 100 });
    expect(first.body).toMatchObject({
      totalElements: LIMITS.searchWindowRows,
      totalPages: LIMITS.searchWindowRows / 100,
    });
    const last = await search(admin, { keyWord: 'seeded row', size: 100, page: LIMITS.searchWindowRows / 100 - 1 });
    expect(last.body.content).toHaveLength(100);
    const beyond = await search(admin, { keyWord: 'seeded row', size: 100, page: LIMITS.searchWindowRows / 100 });
    expect(beyond.status).toBe(200);
    expect(beyond.body.content).toEqual([]);
    // A narrower filter under the window is counted exactly.
    const narrow = await search(admin, { keyWord: 'seeded row 1000', size: 100 });
    expect(narrow.body.totalElements).toBe(11);
  });
});
