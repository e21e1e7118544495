import type { AccountHistory } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment, transfer } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('ledger account history', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-04-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let omer: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    dana = await createActiveUser(testApp, { firstName: 'Dana', lastName: 'Levi' });
    omer = await createActiveUser(testApp, { firstName: 'Omer', lastName: 'Katz' });
    clock.set(new Date('2026-04-02T10:00:00Z'));
    await manualPayment(testApp, admin, dana.userUuid, 10, 'First deposit');
    clock.set(new Date('2026-04-03T10:00:00Z'));
    await transfer(testApp, dana.accessToken, omer.email, 2.5);
    clock.set(new Date('2026-04-05T10:00:00Z'));
    await manualPayment(testApp, admin, dana.userUuid, 5, 'A later deposit');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const history = (token: string, account: string, query: Record<string, string | number> = {}) =>
    testApp.http
      .get(`/api/ledger/accounts/${encodeURIComponent(account)}/history`)
      .query(query)
      .set('Authorization', `Bearer ${token}`);

  it("answers a user account's balance before and after a later deposit, entries newest first", async () => {
    const account = `user:${dana.userUuid}`;
    const before = await history(manager.accessToken, account, { asOf: '2026-04-04T00:00:00Z' });
    expect(before.status).toBe(200);
    const earlier = before.body as AccountHistory;
    expect(earlier).toMatchObject({ account, asOf: '2026-04-04T00:00:00.000Z', balance: 7.5 });
    expect(earlier.entries.totalElements).toBe(2);
    expect(earlier.entries.content.map((entry) => [entry.amount, entry.balanceAfter, entry.counterAccount])).toEqual([
      [-2.5, 7.5, `user:${omer.userUuid}`],
      [10, 10, 'world:manual'],
    ]);
    // The account and each user counter-account are named by their holder; system accounts by nobody.
    expect(earlier.holder).toEqual({ userUuid: dana.userUuid, fullName: 'Dana Levi', email: dana.email });
    expect(earlier.entries.content.map((entry) => entry.counterAccountHolder)).toEqual([
      { userUuid: omer.userUuid, fullName: 'Omer Katz', email: omer.email },
      null,
    ]);
    expect(earlier.entries.content.map((entry) => entry.eventType)).toEqual(['TransferSent', 'ManualDepositRecorded']);
    expect(earlier.entries.content[1]).toMatchObject({ occurredAt: '2026-04-02T10:00:00.000Z', account });
    expect(typeof earlier.entries.content[1].paymentId).toBe('number');

    const after = (await history(admin, account, { asOf: '2026-04-05T10:00:00Z' })).body as AccountHistory;
    expect(after.balance).toBe(12.5);
    expect(after.entries.content.map((entry) => entry.balanceAfter)).toEqual([12.5, 7.5, 10]);
    // At the first instant of the history, before it and now.
    expect((await history(admin, account, { asOf: '2026-04-02T10:00:00Z' })).body.balance).toBe(10);
    const empty = (await history(admin, account, { asOf: '2026-04-01T00:00:00Z' })).body as AccountHistory;
    expect(empty.balance).toBe(0);
    expect(empty.entries.content).toEqual([]);
    clock.set(new Date('2026-04-06T00:00:00Z'));
    const now = (await history(admin, account)).body as AccountHistory;
    expect(now).toMatchObject({ asOf: '2026-04-06T00:00:00.000Z', balance: 12.5 });

    const paged = (await history(admin, account, { size: 1, page: 1 })).body as AccountHistory;
    expect(paged.entries).toMatchObject({ page: 1, size: 1, totalElements: 3, totalPages: 3 });
    expect(paged.entries.content.map((entry) => entry.balanceAfter)).toEqual([7.5]);
  });

  it('sums a system account up to the instant and derives its running balance', async () => {
    const manual = (await history(admin, 'world:manual', { asOf: '2026-04-04T00:00:00Z' })).body as AccountHistory;
    expect(manual.balance).toBe(-10);
    expect(manual.holder).toBeNull();
    expect(manual.entries.content[0].counterAccountHolder).toEqual({
      userUuid: dana.userUuid,
      fullName: 'Dana Levi',
      email: dana.email,
    });
    expect(manual.entries.content.map((entry) => [entry.amount, entry.balanceAfter])).toEqual([[-10, -10]]);
    const later = (await history(admin, 'world:manual', { asOf: '2026-04-05T12:00:00Z', size: 1, page: 0 }))
      .body as AccountHistory;
    expect(later.balance).toBe(-15);
    expect(later.entries.content.map((entry) => [entry.amount, entry.balanceAfter])).toEqual([[-5, -15]]);
    const second = (await history(admin, 'world:manual', { asOf: '2026-04-05T12:00:00Z', size: 1, page: 1 }))
      .body as AccountHistory;
    expect(second.entries.content.map((entry) => [entry.amount, entry.balanceAfter])).toEqual([[-10, -10]]);
  });

  it('refuses bad accounts, instants and pages; unknown users are 404', async () => {
    const badAccount = await history(admin, 'user:nobody');
    expect(badAccount.status).toBe(400);
    expect(badAccount.body.details.fields).toContainEqual({
      field: 'account',
      error: 'error.validation.invalid.format',
    });
    expect((await history(admin, 'world:paypal')).status).toBe(400);
    const badInstant = await history(admin, 'world:manual', { asOf: 'yesterday' });
    expect(badInstant.status).toBe(400);
    expect(badInstant.body.details.fields).toContainEqual({ field: 'asOf', error: 'error.validation.invalid.format' });
    expect((await history(admin, 'world:manual', { asOf: '2026-02-30T00:00:00Z' })).status).toBe(400);
    const tooBig = await history(admin, 'world:manual', { size: 101 });
    expect(tooBig.body.details.fields).toContainEqual({
      field: 'size',
      error: 'error.validation.page.size',
      params: { max: 100 },
    });
    expect((await history(admin, 'world:manual', { page: 'two' })).status).toBe(400);
    expect((await history(admin, 'world:manual', { extra: 1 })).status).toBe(400);
    const unknown = await history(admin, 'user:7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('error.user.not.found');
  });

  it('is for staff only', async () => {
    const own = await history(dana.accessToken, `user:${dana.userUuid}`);
    expect(own.status).toBe(403);
    expect((await testApp.http.get('/api/ledger/accounts/world:manual/history')).status).toBe(401);
  });
});

/** Every reading moves time on by a millisecond, so no two operations share an instant. */
class TickingClock extends ManualClock {
  override now(): Date {
    this.advanceMs(1);
    return super.now();
  }
}

describe('ledger account history under concurrent commands', () => {
  let testApp: TestApp;
  const clock = new TickingClock(new Date('2026-05-01T09:00:00Z'));

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('lists running balances in booking order, and the balance as of each instant is the one booked then', async () => {
    const admin = await adminToken(testApp);
    const dana = await createActiveUser(testApp);
    const omer = await createActiveUser(testApp);
    await manualPayment(testApp, admin, dana.userUuid, 50, 'Float');
    await manualPayment(testApp, admin, omer.userUuid, 50, 'Float');
    // Deposits and transfers both ways race for Dana's wallet; each is stamped when it holds the wallet's lock.
    // Amounts are sent as exact dollars and cents: a float sum such as 0.5700000000000001 is refused (ADR 0058).
    const dollars = (cents: number) => cents / 100;
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => {
        if (index % 3 === 0) return manualPayment(testApp, admin, dana.userUuid, dollars(100 + index), `Race ${index}`);
        if (index % 3 === 1) return transfer(testApp, dana.accessToken, omer.email, dollars(50 + index));
        return transfer(testApp, omer.accessToken, dana.email, dollars(25 + index));
      }),
    );

    const account = `user:${dana.userUuid}`;
    const response = await testApp.http
      .get(`/api/ledger/accounts/${encodeURIComponent(account)}/history`)
      .query({ size: 100 })
      .set('Authorization', `Bearer ${admin}`);
    const history = response.body as AccountHistory;
    const entries = history.entries.content;
    expect(entries).toHaveLength(31);
    const cents = (amount: number) => Math.round(amount * 100);
    for (let index = 0; index < entries.length - 1; index += 1) {
      // Newest first: each running balance is the next older one plus this posting, and instants never go back.
      expect(cents(entries[index].balanceAfter) - cents(entries[index].amount)).toBe(
        cents(entries[index + 1].balanceAfter),
      );
      expect(entries[index].occurredAt >= entries[index + 1].occurredAt).toBe(true);
    }
    expect(cents(entries[entries.length - 1].balanceAfter)).toBe(cents(entries[entries.length - 1].amount));

    const user = await testApp.http.get(`/api/users/${dana.userUuid}`).set('Authorization', `Bearer ${admin}`);
    expect(history.balance).toBe(user.body.balance);
    for (const entry of entries.filter((_, index) => index % 5 === 0)) {
      const asOf = await testApp.http
        .get(`/api/ledger/accounts/${encodeURIComponent(account)}/history`)
        .query({ asOf: entry.occurredAt, size: 1 })
        .set('Authorization', `Bearer ${admin}`);
      expect(asOf.body.balance).toBe(entry.balanceAfter);
    }
  });
});
