import type { AccountStatement, BalanceAtInstant, Payment } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment, transfer } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('statements and the balance at an instant', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-04-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let omer: ActiveUser;
  let firstDeposit: Payment;
  let sent: Payment;
  let laterDeposit: Payment;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    dana = await createActiveUser(testApp, { firstName: 'Dana', lastName: 'Levi' });
    omer = await createActiveUser(testApp, { firstName: 'Omer', lastName: 'Katz' });
    clock.set(new Date('2026-04-02T10:00:00Z'));
    firstDeposit = await manualPayment(testApp, admin, dana.userUuid, 10, 'First deposit');
    clock.set(new Date('2026-04-03T10:00:00Z'));
    sent = await transfer(testApp, dana.accessToken, omer.email, 2.5);
    clock.set(new Date('2026-04-05T10:00:00Z'));
    laterDeposit = await manualPayment(testApp, admin, dana.userUuid, 5, 'A later deposit');
    clock.set(new Date('2026-04-06T00:00:00Z'));
  });

  afterAll(async () => {
    await testApp.close();
  });

  const get = (token: string, path: string, query: Record<string, string>, language?: string) => {
    const request = testApp.http.get(path).query(query).set('Authorization', `Bearer ${token}`);
    return language ? request.set('Accept-Language', language) : request;
  };
  const statement = (token: string, userUuid: string, query: Record<string, string>, language?: string) =>
    get(token, `/api/users/${userUuid}/statement`, query, language);

  it("answers the client's own statement: opening, each posting in words with its running balance, closing", async () => {
    const response = await statement(dana.accessToken, dana.userUuid, { from: '2026-04-03', to: '2026-04-06' }, 'en');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.body as AccountStatement;
    expect(body).toMatchObject({
      userUuid: dana.userUuid,
      account: `user:${dana.userUuid}`,
      from: '2026-04-03T00:00:00.000Z',
      to: '2026-04-06T00:00:00.000Z',
      language: 'en',
      openingBalance: 10,
      closingBalance: 12.5,
      creditsTotal: 5,
      debitsTotal: 2.5,
    });
    // The words are the activity log's sentences, values isolated for the screen.
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(body.lines.map((line) => [line.paymentId, plain(line.description), line.amount, line.balanceAfter])).toEqual(
      [
        [sent.paymentId, `Payment #${sent.paymentId}: transfer sent`, -2.5, 7.5],
        [laterDeposit.paymentId, `Payment #${laterDeposit.paymentId}: manual deposit`, 5, 12.5],
      ],
    );
    expect(body.lines[0]).toMatchObject({ occurredAt: '2026-04-03T10:00:00.000Z', eventType: 'TransferSent' });

    const hebrew = (await statement(dana.accessToken, dana.userUuid, { from: '2026-04-01', to: '2026-04-06' }, 'he'))
      .body as AccountStatement;
    expect(hebrew.language).toBe('he');
    expect(hebrew.openingBalance).toBe(0);
    expect(plain(hebrew.lines[0].description)).toBe(`תשלום #${firstDeposit.paymentId}: הפקדה ידנית`);
  });

  it("shows a transfer's recipient the transfer received, under their own payment", async () => {
    const body = (await statement(omer.accessToken, omer.userUuid, { from: '2026-04-01', to: '2026-04-06' }, 'en'))
      .body as AccountStatement;
    expect(body.lines).toHaveLength(1);
    const [line] = body.lines;
    expect(line).toMatchObject({ eventType: 'TransferReceived', amount: 2.5, balanceAfter: 2.5 });
    expect(line.paymentId).not.toBe(sent.paymentId);
    const own = await testApp.http
      .get(`/api/payments/${line.paymentId}`)
      .set('Authorization', `Bearer ${omer.accessToken}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ type: 'TRANSFER_IN', transferId: sent.transferId });
  });

  it("speaks the holder's language when the request names none of ours", async () => {
    const [{ language }]: Array<{ language: string }> = await testApp.dataSource.query(
      'SELECT language FROM users WHERE uuid = $1',
      [dana.userUuid],
    );
    const body = (await statement(dana.accessToken, dana.userUuid, { from: '2026-04-01', to: '2026-04-06' }, 'fr'))
      .body as AccountStatement;
    expect(body.language).toBe(language);
  });

  it("lets admins and managers read a client's statement; another client's is 404, like an unknown one", async () => {
    for (const token of [admin, manager.accessToken]) {
      const response = await statement(token, dana.userUuid, { from: '2026-04-01', to: '2026-04-06' });
      expect(response.status).toBe(200);
      expect((response.body as AccountStatement).closingBalance).toBe(12.5);
    }
    const period = { from: '2026-04-01', to: '2026-04-06' };
    const paths: Array<[string, Record<string, string>]> = [
      ['statement', period],
      ['statement.csv', period],
      ['balance', { at: '2026-04-01' }],
    ];
    for (const [path, query] of paths) {
      const other = await get(omer.accessToken, `/api/users/${dana.userUuid}/${path}`, query);
      expect(other.status).toBe(404);
      expect(other.body.error).toBe('error.user.not.found');
    }
    const unknown = await statement(admin, '6f1d2c3b-4a59-4e68-8d7c-9b0a1f2e3d4c', {
      from: '2026-04-01',
      to: '2026-04-06',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses a bad period with a catalogue code, never a 500', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ from: '2026-04-06', to: '2026-04-01' }, 'error.validation.failed'],
      [{ from: '2026-04-06', to: '2026-04-06' }, 'error.validation.failed'],
      [{ from: '2025-01-01', to: '2026-04-01' }, 'error.statement.period.too.long'],
      [{ to: '2026-04-01' }, 'error.validation.failed'],
      [{ from: 'yesterday', to: '2026-04-01' }, 'error.validation.failed'],
      [{ from: '2026-02-30', to: '2026-04-01' }, 'error.validation.failed'],
    ];
    for (const [query, error] of cases) {
      const response = await statement(dana.accessToken, dana.userUuid, query);
      expect({ query, status: response.status, error: response.body.error }).toEqual({ query, status: 400, error });
    }
    const reversed = await statement(dana.accessToken, dana.userUuid, { from: '2026-04-06', to: '2026-04-01' });
    expect(reversed.body.details.fields).toEqual([{ field: 'to', error: 'error.validation.range.reversed' }]);
    const tooLong = await statement(dana.accessToken, dana.userUuid, { from: '2025-01-01', to: '2026-04-01' });
    expect(tooLong.body.details).toEqual({ maxDays: 366 });
  });

  it('downloads the statement as a CSV file in the asked language and time zone', async () => {
    const response = await get(
      dana.accessToken,
      `/api/users/${dana.userUuid}/statement.csv`,
      { from: '2026-04-01T00:00:00+03:00', to: '2026-04-06T00:00:00+03:00', timeZone: 'Asia/Jerusalem' },
      'he',
    ).buffer(true);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-language']).toBe('he');
    expect(response.headers['content-disposition']).toBe('attachment; filename="statement-2026-03-31_2026-04-05.csv"');
    const text = response.text;
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'מועד (Asia/Jerusalem),מספר תשלום,תיאור,סכום,יתרה',
      '2026-04-01 00:00:00,,יתרת פתיחה,,0.00',
      `2026-04-02 13:00:00,${firstDeposit.paymentId},תשלום #${firstDeposit.paymentId}: הפקדה ידנית,10.00,10.00`,
      `2026-04-03 13:00:00,${sent.paymentId},תשלום #${sent.paymentId}: העברה יוצאת,-2.50,7.50`,
      `2026-04-05 13:00:00,${laterDeposit.paymentId},תשלום #${laterDeposit.paymentId}: הפקדה ידנית,5.00,12.50`,
      '2026-04-06 00:00:00,,יתרת סגירה,,12.50',
      '',
    ]);

    const badZone = await get(dana.accessToken, `/api/users/${dana.userUuid}/statement.csv`, {
      from: '2026-04-01',
      to: '2026-04-06',
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(badZone.status).toBe(400);
    expect(badZone.body.details.fields).toEqual([{ field: 'timeZone', error: 'error.validation.invalid.format' }]);
  });

  it("answers the balance at an instant from the ledger's as-of, the postings at that instant included", async () => {
    const at = async (instant: string) => {
      const response = await get(dana.accessToken, `/api/users/${dana.userUuid}/balance`, { at: instant });
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      return response.body as BalanceAtInstant;
    };
    expect(await at('2026-04-01')).toEqual({ userUuid: dana.userUuid, at: '2026-04-01T00:00:00.000Z', balance: 0 });
    expect((await at('2026-04-02T10:00:00Z')).balance).toBe(10);
    expect((await at('2026-04-03T23:59:59.999Z')).balance).toBe(7.5);
    expect((await at('2026-04-06')).balance).toBe(12.5);
    // The same figure as the staff's account history at that instant.
    const history = await testApp.http
      .get(`/api/ledger/accounts/user:${dana.userUuid}/history`)
      .query({ asOf: '2026-04-03T23:59:59.999Z', size: 1 })
      .set('Authorization', `Bearer ${admin}`);
    expect(history.body.balance).toBe(7.5);
    const missing = await get(dana.accessToken, `/api/users/${dana.userUuid}/balance`, {});
    expect(missing.status).toBe(400);
  });
});
