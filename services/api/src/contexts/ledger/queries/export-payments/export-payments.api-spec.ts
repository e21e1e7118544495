import {
  csvCellNeedsFormulaGuard,
  type Page,
  type Payment,
  PAYMENTS_CSV_COLUMNS,
  paymentsCsvHeader,
  type User,
} from '@kupa/proto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { ManualClock } from '../../../../platform/clock';
import { manualPayment, seedPaymentRows, transfer } from '../../../../test-support/ledger-query-fixtures';
import { sandboxAct, sandboxInvoiceId } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { parseStrictCsv } from '../../../../test-support/strict-csv';
import { CrlfLineEnds, csvCell } from './csv';
import { EXPORT_QUERY_TAG } from './export-payments.handler';

/**
 * Rows of the read-model-only memory test, and how much live memory may grow while they stream: a small part of
 * the file (about 20 MiB), let alone of its rows as JavaScript objects.
 */
const LARGE_EXPORT_ROWS = 100_000;
const LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES = 8 * 1024 * 1024;
/** How long the slow reader waits for the export's COPY to stop producing rows, and how often it looks. */
const COPY_STALL_DEADLINE_MS = 10_000;
const COPY_STALL_POLL_MS = 250;
const BOM = '\uFEFF';
/** Live memory is sampled after a full collection every this many chunks; garbage between samples is not growth. */
const CHUNKS_PER_HEAP_SAMPLE = 20;
/**
 * The last part of the stream whose samples judge what the export holds on to. Rows kept would have piled up to most
 * of the file by then; one sample caught while something else in this process (a jest worker that ran other files,
 * the app's own pollers) held a few MiB is not the export's, and the lowest late sample is not fooled by it.
 */
const LATE_SAMPLES_FRACTION = 0.25;

/** A full garbage collection on demand (jest runs without --expose-gc, so the flag is set at run time). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Waits until the export's COPY has produced rows and then stops producing: the same count twice, a poll apart. The
 * count it stopped at, or null when the COPY ended (or never began) before the deadline: a server that does not wait
 * for a slow reader runs its COPY to the end.
 */
async function waitForStalledCopy(testApp: TestApp): Promise<number | null> {
  const deadline = Date.now() + COPY_STALL_DEADLINE_MS;
  let previous: number | null = null;
  while (Date.now() < deadline) {
    await sleep(COPY_STALL_POLL_MS);
    const progress: Array<{ rows: number }> = await testApp.dataSource.query(
      `SELECT c.tuples_processed::int AS rows FROM pg_stat_progress_copy c JOIN pg_stat_activity a ON a.pid = c.pid
        WHERE c.datname = current_database() AND a.query LIKE '%' || $1 || '%'`,
      [EXPORT_QUERY_TAG],
    );
    const rows = progress.length === 1 ? progress[0].rows : null;
    if (rows !== null && rows > 0 && rows === previous) return rows;
    previous = rows;
  }
  return null;
}

/** The position of a column in the file, by its key in proto's column list. */
const column = (key: string): number => PAYMENTS_CSV_COLUMNS.findIndex((candidate) => candidate.key === key);

/** Reads an export strictly: the BOM, then RFC 4180 records. */
function readExport(text: string): string[][] {
  expect(text.startsWith(BOM)).toBe(true);
  return parseStrictCsv(text.slice(BOM.length));
}

describe('payments CSV export', () => {
  let testApp: TestApp;
  let admin: string;
  let client: ActiveUser;
  let baseUrl: string;
  const tricky = [
    '=1+1',
    '-2',
    '@x',
    '+3',
    'She said "hi", then left',
    'העברה בנקאית מלאומי',
    '\tTabbed',
    'line one\nline two',
    "O'Brien paid $1 \\ then $2",
    // Probed (ADR 0059): whitespace, `;` and look-alikes of the formula starts went out unguarded.
    ' =1+1',
    ';=1+1',
    '\u00a0-4',
    '＝1+1',
    '＋5',
    '﹣6',
    '＠SUM(A1)',
    '−7',
    '\u200b=1+1',
  ];

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    client = await createActiveUser(testApp);
    for (const [index, comment] of tricky.entries())
      await manualPayment(testApp, admin, client.userUuid, 10 + index, comment);
    // The test app listens on a free loopback port already.
    const server: http.Server = testApp.app.getHttpServer();
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const exportCsv = (token: string, body: Record<string, unknown>) =>
    testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${token}`)
      .send(body)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });

  it('streams a UTF-8 CSV with a BOM, a header and formula-safe, quoted cells', async () => {
    const response = await exportCsv(admin, { keyWord: client.email });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="payments.csv"');
    const text = response.body as string;
    const records = readExport(text);
    // Without an Accept-Language the file is English, its date-times in UTC.
    expect(records[0]).toEqual(paymentsCsvHeader('en', 'UTC'));
    const rows = records.slice(1);
    expect(rows).toHaveLength(tricky.length);
    const comments = rows.map((row) => row[column('comment')]);
    // Newest first, like the search; formula starts neutralised, quotes doubled, Hebrew intact.
    expect(comments).toEqual(
      [...tricky]
        .reverse()
        .map((comment) => (/^[=+\-@\t\r\s;＝＋﹣＠−\u200b]/.test(comment) ? `'${comment}` : comment)),
    );
    expect(text).toContain(`"She said ""hi"", then left"`);
    expect(text).toContain(`'=1+1,`);
    const first = rows[rows.length - 1];
    expect(first[column('amount')]).toBe('10.00');
    expect(comments).toContain("'＝1+1");
    expect(comments).toContain("' =1+1");
    expect(first[column('userEmail')]).toBe(client.email);
    expect(first[column('createdAt')]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('+3')).toBe("'+3");
  });

  it("turns PostgreSQL's line ends into CRLF across chunks, leaving line feeds inside quoted cells alone", () => {
    const lineEnds = new CrlfLineEnds();
    const pieces = ['1,"two\nlines",x\n2,"a ""quo', 'ted"" one",y\n', '3,plain', ',z\n'];
    const converted = pieces.map((piece) => lineEnds.convert(Buffer.from(piece)).toString()).join('');
    expect(converted).toBe('1,"two\nlines",x\r\n2,"a ""quoted"" one",y\r\n3,plain,z\r\n');
    expect(parseStrictCsv(converted)).toEqual([
      ['1', 'two\nlines', 'x'],
      ['2', 'a "quoted" one', 'y'],
      ['3', 'plain', 'z'],
    ]);
  });

  it('holds exactly the rows the search finds for the same filters, in the same order', async () => {
    const body = { types: ['DEPOSIT'], sorts: [{ id: 'amount', desc: true }] };
    const searched = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...body, size: 100 });
    const page = searched.body as Page<Payment>;
    const rows = readExport((await exportCsv(admin, body)).body).slice(1);
    expect(rows.map((row) => Number(row[column('paymentId')]))).toEqual(
      page.content.map((payment) => payment.paymentId),
    );
    expect(rows.map((row) => row[column('amount')])).toEqual(page.content.map((payment) => payment.amount.toFixed(2)));
    // One type in the default order leads the ORDER BY with the type (ADR 0042): still newest first, in both.
    const newest = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ types: ['DEPOSIT'], size: 100 });
    const newestIds = (newest.body as Page<Payment>).content.map((payment) => payment.paymentId);
    expect(newestIds.length).toBeGreaterThan(1);
    const newestExported = readExport((await exportCsv(admin, { types: ['DEPOSIT'] })).body).slice(1);
    expect(newestExported.map((row) => Number(row[column('paymentId')]))).toEqual(newestIds);
    const createdAts = (newest.body as Page<Payment>).content.map((payment) => payment.createdAt);
    expect(createdAts).toEqual([...createdAts].sort().reverse());
    // Filters reach PostgreSQL's COPY as literals: quotes, backslashes and placeholder-like text match literally.
    for (const keyWord of ["o'brien", '$1 \\ then', "' OR ''='"]) {
      const found = await testApp.http
        .post('/api/payments/search')
        .set('Authorization', `Bearer ${admin}`)
        .send({ keyWord });
      const exported = readExport((await exportCsv(admin, { keyWord })).body).slice(1);
      expect(exported.map((row) => Number(row[column('paymentId')]))).toEqual(
        (found.body as Page<Payment>).content.map((payment) => payment.paymentId),
      );
      expect(exported.length).toBe(keyWord.startsWith("'") ? 0 : 1);
    }
    const none = readExport((await exportCsv(admin, { statuses: ['REFUNDED'] })).body);
    expect(none).toEqual([paymentsCsvHeader('en', 'UTC')]);
  });

  it('is for admins only and validates like the search', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    for (const token of [client.accessToken, manager.accessToken]) {
      expect(
        (await testApp.http.post('/api/payments/export').set('Authorization', `Bearer ${token}`).send({})).status,
      ).toBe(403);
    }
    const badSort = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ sorts: [{ id: 'x', desc: true }] });
    expect(badSort.status).toBe(400);
    expect(badSort.headers['content-type']).toMatch(/application\/json/);
    const paged = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ size: 10 });
    expect(paged.status).toBe(400);
  });

  it(`streams ${LARGE_EXPORT_ROWS} rows with bounded memory, and stops when the client goes away`, async () => {
    const seeded = await createActiveUser(testApp);
    await seedPaymentRows(testApp, LARGE_EXPORT_ROWS, seeded.userUuid, seeded.email);
    const request = (onChunk: (chunk: Buffer, req: http.ClientRequest) => void) =>
      new Promise<{ status: number }>((resolve, reject) => {
        const req = http.request(`${baseUrl}/api/payments/export`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
        });
        req.on('response', (response) => {
          response.on('data', (chunk: Buffer) => onChunk(chunk, req));
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
          response.on('error', () => resolve({ status: response.statusCode ?? 0 }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ keyWord: 'seeded row' }));
      });

    // Client and server share this process, so heap and Buffers (socket queues live outside the heap) both count.
    const liveBytes = () => {
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    collectGarbage();
    const baseline = liveBytes();
    let peak = baseline;
    const growthSamples: number[] = [];
    let lineBreaks = 0;
    let received = 0;
    let chunks = 0;
    const { status } = await request((chunk) => {
      received += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lineBreaks += 1;
      chunks += 1;
      if (chunks % CHUNKS_PER_HEAP_SAMPLE === 0) {
        collectGarbage();
        const live = liveBytes();
        peak = Math.max(peak, live);
        growthSamples.push(live - baseline);
      }
    });
    expect(status).toBe(200);
    expect(lineBreaks).toBe(LARGE_EXPORT_ROWS + 1);
    // The file is more than twice the bound, and its rows as JavaScript objects far more: the export holds neither.
    expect(received).toBeGreaterThan(LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES * 2);
    expect(chunks).toBeGreaterThan(CHUNKS_PER_HEAP_SAMPLE * 5);
    const lateSamples = growthSamples.slice(-Math.ceil(growthSamples.length * LATE_SAMPLES_FRACTION));
    expect(Math.min(...lateSamples)).toBeLessThan(LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES);
    // Never anything like the file at once either (the slow reader below pins down the socket's back-pressure).
    expect(peak - baseline).toBeLessThan(received / 2);

    // A reader that stops after its first chunk: the server must wait for the socket to drain, and the database for
    // the server. Memory in this shared process is a poor witness of that (other files' leftovers come and go within
    // a pause); PostgreSQL's own count of the rows its COPY has produced is a good one: it must stop short of the end.
    // This reader comes through a Unix socket, whose kernel buffer is small: a loopback TCP socket's can grow to tens
    // of MiB and hold much of the file, a quarter of it stays in the database connection's.
    const socketPath = join(tmpdir(), `kupa-export-${process.pid}.sock`);
    // A socket file left by a killed run of the same process id would refuse the listen.
    rmSync(socketPath, { force: true });
    const unixServer = http.createServer(testApp.app.getHttpAdapter().getInstance());
    await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
    let slow: { lines: number; stalledAtRows: number | null };
    try {
      slow = await new Promise((resolve, reject) => {
        const req = http.request({
          socketPath,
          path: '/api/payments/export',
          method: 'POST',
          headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
        });
        req.on('response', (response) => {
          let lines = 0;
          let stalledAtRows: number | null = null;
          let paused = false;
          response.on('data', (chunk: Buffer) => {
            for (const byte of chunk) if (byte === 0x0a) lines += 1;
            if (paused) return;
            paused = true;
            response.pause();
            waitForStalledCopy(testApp).then((rows) => {
              stalledAtRows = rows;
              response.resume();
            }, reject);
          });
          response.on('end', () => resolve({ lines, stalledAtRows }));
          response.on('error', reject);
        });
        req.on('error', reject);
        req.end(JSON.stringify({ keyWord: 'seeded row' }));
      });
    } finally {
      unixServer.close();
      unixServer.closeAllConnections();
    }
    expect(slow.lines).toBe(LARGE_EXPORT_ROWS + 1);
    expect(slow.stalledAtRows).not.toBeNull();
    expect(slow.stalledAtRows).toBeLessThan(LARGE_EXPORT_ROWS / 2);

    // A client that leaves after the first chunk: the cursor's transaction ends and its connection is released.
    await request((_chunk, req) => req.destroy());
    const deadline = Date.now() + 5000;
    let open: Array<{ count: number }> = [];
    do {
      await sleep(100);
      open = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND query LIKE '%' || $1 || '%' AND state <> 'idle'`,
        [EXPORT_QUERY_TAG],
      );
    } while (open[0].count > 0 && Date.now() < deadline);
    expect(open[0].count).toBe(0);
    const cursors: Array<{ count: number }> = await testApp.dataSource.query(
      'SELECT count(*)::int AS count FROM pg_cursors',
    );
    expect(cursors[0].count).toBe(0);
    // Seven seconds alone; a loaded two-core machine running other suites has taken minutes.
  }, 180_000);

  it('marks money paid on the sandbox cashier as SANDBOX in the Provider column (issue 27)', async () => {
    const payer = await createActiveUser(testApp);
    await manualPayment(testApp, admin, payer.userUuid, 5, 'wire');
    const opened = await testApp.http
      .post('/api/payments/crypto/deposit')
      .set('Authorization', `Bearer ${payer.accessToken}`)
      .send({ amount: 20, method: 'CRYPTO_USDT_TRC20' });
    expect(opened.status).toBe(201);
    const invoiceId = sandboxInvoiceId((opened.body as { invoiceUrl: string }).invoiceUrl);
    expect((await sandboxAct(testApp, invoiceId, 'pay')).status).toBe(200);
    const rows = readExport((await exportCsv(admin, { keyWord: payer.email })).body as string).slice(1);
    const cells = rows.map((row) => [row[column('amount')], row[column('provider')]]);
    expect(cells).toEqual(
      expect.arrayContaining([
        ['20.00', 'SANDBOX'],
        ['5.00', ''],
      ]),
    );
    expect(cells).toHaveLength(2);
  });
});

describe('a payments CSV finance can open', () => {
  let testApp: TestApp;
  // 12:05 UTC on a November day is 14:05 in Jerusalem (winter time, UTC+2).
  const clock = new ManualClock(new Date('2026-11-24T12:05:00Z'));
  let admin: string;
  let alice: ActiveUser;
  let bob: ActiveUser;
  let aliceProfileId: string;
  let bobProfileId: string;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    alice = await createActiveUser(testApp, { firstName: 'Alice', lastName: 'Amar' });
    bob = await createActiveUser(testApp, { firstName: 'Bob', lastName: 'Ben-Ami' });
    await manualPayment(testApp, admin, alice.userUuid, 50, 'Opening deposit');
    clock.set(new Date('2026-11-24T12:06:00Z'));
    await transfer(testApp, alice.accessToken, bob.email, 12.5);
    clock.set(new Date('2026-11-24T12:07:00Z'));
    await manualPayment(testApp, admin, alice.userUuid, 5, 'Paid out in cash', 'WITHDRAW');
    const profileOf = async (userUuid: string) =>
      ((await testApp.http.get(`/api/users/${userUuid}`).set('Authorization', `Bearer ${admin}`)).body as User)
        .profileId;
    aliceProfileId = await profileOf(alice.userUuid);
    bobProfileId = await profileOf(bob.userUuid);
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** The export of every payment, oldest first, in the language and zone asked for. */
  const download = (acceptLanguage: string | null, extra: Record<string, unknown> = {}) => {
    const request = testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ sorts: [{ id: 'createdAt', desc: false }], ...extra })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    return acceptLanguage === null ? request : request.set('Accept-Language', acceptLanguage);
  };

  /** The rows as records keyed by column, so each assertion names what it checks. */
  function rowsOf(records: string[][]): Array<Record<string, string>> {
    return records
      .slice(1)
      .map((record) => Object.fromEntries(PAYMENTS_CSV_COLUMNS.map((item, index) => [item.key, record[index]])));
  }

  it('is Hebrew for a Hebrew console: header, labels, local date-times with their zone, signed amounts, text ids', async () => {
    const response = await download('he-IL,he;q=0.9,en;q=0.8', { timeZone: 'Asia/Jerusalem' });
    expect(response.status).toBe(200);
    expect(response.headers['content-language']).toBe('he');
    expect(response.headers.vary).toMatch(/Accept-Language/i);
    const records = readExport(response.body as string);
    expect(records[0]).toEqual(paymentsCsvHeader('he', 'Asia/Jerusalem'));
    expect(records[0][column('createdAt')]).toBe('נוצר (Asia/Jerusalem)');
    expect(records[0][column('paymentId')]).toBe('מספר תשלום');

    const rows = rowsOf(records);
    expect(rows.map((row) => [row.userEmail, row.type, row.status, row.method, row.aggregator, row.amount])).toEqual([
      [alice.email, 'הפקדה', 'הצליח', 'העברה ידנית', 'ידני', '50.00'],
      [alice.email, 'העברה יוצאת', 'הצליח', 'יתרה', 'פנימי', '-12.50'],
      [bob.email, 'העברה נכנסת', 'הצליח', 'יתרה', 'פנימי', '12.50'],
      [alice.email, 'משיכה', 'הצליח', 'העברה ידנית', 'ידני', '-5.00'],
    ]);
    // The amounts of the file add up to what stayed with the clients: 50 − 12.50 + 12.50 − 5.
    expect(rows.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0)).toBe(4500);
    expect(rows.map((row) => row.createdAt)).toEqual([
      '2026-11-24 14:05:00',
      '2026-11-24 14:06:00',
      '2026-11-24 14:06:00',
      '2026-11-24 14:07:00',
    ]);
    expect(rows.every((row) => row.updatedAt === row.createdAt)).toBe(true);
    // Profile IDs stay text with their zeros; the payment number stays a number a spreadsheet can sort.
    const transferOut = rows[1];
    expect(transferOut.senderProfileId).toBe(`="${aliceProfileId}"`);
    expect(transferOut.recipientProfileId).toBe(`="${bobProfileId}"`);
    expect(rows[0].senderProfileId).toBe('');
    expect(rows.every((row) => /^[1-9]\d*$/.test(row.paymentId))).toBe(true);
  });

  it('is English with UTC date-times when the request names no language of ours or no zone', async () => {
    for (const acceptLanguage of [null, 'fr-FR, de;q=0.8', 'en-GB']) {
      const response = await download(acceptLanguage);
      expect(response.status).toBe(200);
      expect(response.headers['content-language']).toBe('en');
      const records = readExport(response.body as string);
      expect(records[0]).toEqual(paymentsCsvHeader('en', 'UTC'));
      expect(records[0][column('createdAt')]).toBe('Created (UTC)');
      const rows = rowsOf(records);
      expect(rows.map((row) => [row.type, row.status, row.amount, row.createdAt])).toEqual([
        ['Deposit', 'Success', '50.00', '2026-11-24 12:05:00'],
        ['Transfer out', 'Success', '-12.50', '2026-11-24 12:06:00'],
        ['Transfer in', 'Success', '12.50', '2026-11-24 12:06:00'],
        ['Withdrawal', 'Success', '-5.00', '2026-11-24 12:07:00'],
      ]);
    }
  });

  it('lets no cell start a formula except the text formulas of digit-only ids', async () => {
    for (const acceptLanguage of ['he', 'en']) {
      const records = readExport((await download(acceptLanguage)).body as string);
      for (const record of records.slice(1)) {
        record.forEach((cell, index) => {
          const key = PAYMENTS_CSV_COLUMNS[index].key;
          if (cell.startsWith('=')) expect({ key, cell }).toEqual({ key, cell: expect.stringMatching(/^="\d+"$/) });
          if (cell.startsWith('-'))
            expect({ key, cell }).toEqual({ key: 'amount', cell: expect.stringMatching(/^-\d+\.\d{2}$/) });
          if (key !== 'amount' && !cell.startsWith('='))
            expect({ key, cell: csvCellNeedsFormulaGuard(cell) }).toEqual({ key, cell: false });
        });
      }
    }
  });

  it('refuses a time zone that is not an IANA name, or that the database does not know, before any byte', async () => {
    for (const timeZone of ['IST', 'EST5EDT', 'Asia/Jerusalem; DROP TABLE payments', 'Mars/Olympus_Mons']) {
      const response = await testApp.http
        .post('/api/payments/export')
        .set('Authorization', `Bearer ${admin}`)
        .send({ timeZone });
      expect(response.status).toBe(400);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.body.details.fields).toContainEqual({
        field: 'timeZone',
        error: 'error.validation.invalid.format',
      });
    }
  });
});
