import type { AccountStatement, BalanceAtInstant, Payment } from '@kupa/proto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../../platform/clock';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment, seedWalletPostings, transfer } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

const OPERATOR_ENV = {
  OPERATOR_NAME: 'קופה בע״מ',
  OPERATOR_ADDRESS: 'רחוב הרצל 1, תל אביב',
  OPERATOR_TAX_ID: '514000000',
};

/** pdftotext marks its right-to-left and left-to-right runs with embedding controls; the words are what we compare. */
const BIDI_CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A PDF as a person meets it: poppler-utils extracts its text (logical order, one trimmed line per entry, per page)
 * and pdftoppm draws its first page, which must not be blank-sized.
 */
function pdfPages(pdf: Buffer): string[][] {
  const folder = mkdtempSync(join(tmpdir(), 'kupa-statement-'));
  try {
    const file = join(folder, 'statement.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    execFileSync('pdftoppm', ['-r', '40', '-png', '-f', '1', '-l', '1', '-singlefile', file, join(folder, 'page')]);
    expect(readdirSync(folder)).toContain('page.png');
    expect(readFileSync(join(folder, 'page.png')).length).toBeGreaterThan(2_000);
    return text
      .split('\f')
      .map((page) =>
        page
          .replace(BIDI_CONTROLS, '')
          .replace(/\u00A0/g, ' ')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      )
      .filter((page) => page.length > 0);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The words and numbers of a line that mixes directions, sorted: poppler may move a bracket, a colon or a number across
 * a run's edge (and glue `#1` to the Hebrew word after it), so such lines are compared by what they hold.
 */
function tokens(line: string): string[] {
  return line
    .split(/[\s,()<>:#]+|(?<=\d)(?=\p{L})|(?<=\p{L})(?=\d)/u)
    .filter((token) => token !== '')
    .sort();
}

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
    testApp = await startTestApp({ clock, env: OPERATOR_ENV });
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
      ['statement.pdf', period],
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

  const pdf = (token: string, userUuid: string, query: Record<string, string>, language?: string) => {
    const request = testApp.rawHttp
      .get(`/api/users/${userUuid}/statement.pdf`)
      .query(query)
      .set('Authorization', `Bearer ${token}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return language ? request.set('Accept-Language', language) : request;
  };

  it('prints the statement as a PDF in Hebrew, right to left, with the operator from configuration', async () => {
    const response = await pdf(
      dana.accessToken,
      dana.userUuid,
      { from: '2026-04-01T00:00:00+03:00', to: '2026-04-06T00:00:00+03:00', timeZone: 'Asia/Jerusalem' },
      'he',
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-language']).toBe('he');
    expect(response.headers['content-disposition']).toBe('attachment; filename="statement-2026-03-31_2026-04-05.pdf"');
    const pages = pdfPages(response.body as Buffer);
    expect(pages).toHaveLength(1);
    const [he] = pages;
    // Whole lines where poppler gives the line back as typed: Hebrew labels, dates, amounts kept left to right.
    expect(he).toEqual(
      expect.arrayContaining([
        'דף חשבון',
        'לקוח',
        'תקופה',
        'יתרת פתיחה',
        'נכנס',
        'יצא',
        'יתרת סגירה',
        '0.00 $',
        '15.00 $',
        '2.50 $',
        '12.50 $',
        'מועד',
        'תיאור',
        'סכום',
        'יתרה',
        '02.04.2026, 13:00',
        '+10.00 $',
        '03.04.2026, 13:00',
        '-2.50 $',
        '7.50 $',
        '05.04.2026, 13:00',
        '+5.00 $',
        'קופה בע״מ',
        'מספר עוסק 514000000',
      ]),
    );
    const held = he.map(tokens);
    for (const mixed of [
      `Dana Levi <${dana.email}>`,
      '01.04.2026, 00:00 עד 06.04.2026, 00:00 (Asia/Jerusalem)',
      `תשלום #${firstDeposit.paymentId}: הפקדה ידנית`,
      `תשלום #${sent.paymentId}: העברה יוצאת`,
      `תשלום #${laterDeposit.paymentId}: הפקדה ידנית`,
      'רחוב הרצל 1, תל אביב',
    ]) {
      expect({ mixed, held: held.some((line) => line.join(' ') === tokens(mixed).join(' ')) }).toEqual({
        mixed,
        held: true,
      });
    }
  });

  it('prints the statement as a PDF in English for staff, and a long one over several pages', async () => {
    const response = await pdf(admin, dana.userUuid, { from: '2026-04-01', to: '2026-04-06' }, 'en');
    expect(response.status).toBe(200);
    expect(response.headers['content-language']).toBe('en');
    const [en, ...more] = pdfPages(response.body as Buffer);
    expect(more).toEqual([]);
    expect(en).toEqual(
      expect.arrayContaining([
        'Account statement',
        'Client',
        `Dana Levi <${dana.email}>`,
        'Period',
        '04/01/2026, 00:00 to 04/06/2026, 00:00 (UTC)',
        'Opening balance',
        '$0.00',
        'Money in',
        '$15.00',
        'Money out',
        '$2.50',
        'Closing balance',
        '$12.50',
        'Date (UTC)',
        'Description',
        'Amount',
        'Balance',
        '04/02/2026, 10:00',
        `Payment #${firstDeposit.paymentId}: manual deposit`,
        '+$10.00',
        '$10.00',
        `Payment #${sent.paymentId}: transfer sent`,
        '-$2.50',
        '$7.50',
        `Payment #${laterDeposit.paymentId}: manual deposit`,
        '+$5.00',
        'Tax ID 514000000',
      ]),
    );

    // 200 postings run over several pages, each with the table's header and the operator's footer.
    const noa = await createActiveUser(testApp, { firstName: 'Noa', lastName: 'Peretz' });
    await seedWalletPostings(testApp, noa.userUuid, 200, new Date('2026-03-01T00:00:00Z'));
    const long = await pdf(noa.accessToken, noa.userUuid, { from: '2026-03-01', to: '2026-03-31' }, 'en');
    expect(long.status).toBe(200);
    const longPages = pdfPages(long.body as Buffer);
    expect(longPages.length).toBeGreaterThan(1);
    for (const page of longPages) {
      expect(page).toEqual(
        expect.arrayContaining(['Date (UTC)', 'Description', 'Amount', 'Balance', 'Tax ID 514000000']),
      );
    }
    const postings = longPages.flat().filter((line) => /^Payment #9\d{5}: manual deposit$/.test(line));
    expect(postings).toHaveLength(200);
    expect(longPages.at(-1)).toEqual(expect.arrayContaining(['Payment #900200: manual deposit', '$200.00']));

    const badZone = await pdf(admin, dana.userUuid, {
      from: '2026-04-01',
      to: '2026-04-06',
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(badZone.status).toBe(400);
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
