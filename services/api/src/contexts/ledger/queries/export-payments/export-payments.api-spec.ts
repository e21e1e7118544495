import type { Page, Payment } from '@kupa/proto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { manualPayment, seedPaymentRows } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { csvCell } from './csv';
import { PAYMENTS_CSV_HEADER } from './export-payments.handler';

/**
 * Rows of the read-model-only memory test, and how much live memory may grow while they stream: a small part of
 * the file (about 20 MiB), let alone of its rows as JavaScript objects.
 */
const LARGE_EXPORT_ROWS = 100_000;
const LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES = 8 * 1024 * 1024;
/** How long the slow reader stops reading, while the server must stop writing. */
const SLOW_READER_PAUSE_MS = 1500;
const BOM = '\uFEFF';
/** Live memory is sampled after a full collection every this many chunks; garbage between samples is not growth. */
const CHUNKS_PER_HEAP_SAMPLE = 20;

/** A full garbage collection on demand (jest runs without --expose-gc, so the flag is set at run time). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Splits CSV text into records of cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      cells.push(cell);
      cell = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      cells.push(cell);
      records.push(cells);
      cells = [];
      cell = '';
      index += 1;
    } else cell += character;
  }
  if (cell !== '' || cells.length > 0) records.push([...cells, cell]);
  return records;
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
  ];

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    client = await createActiveUser(testApp);
    for (const [index, comment] of tricky.entries())
      await manualPayment(testApp, admin, client.userUuid, 10 + index, comment);
    const server: http.Server = testApp.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
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
    expect(text.startsWith(BOM)).toBe(true);
    const records = parseCsv(text.slice(BOM.length));
    expect(records[0]).toEqual([...PAYMENTS_CSV_HEADER]);
    const rows = records.slice(1);
    expect(rows).toHaveLength(tricky.length);
    const comments = rows.map((row) => row[PAYMENTS_CSV_HEADER.indexOf('comment')]);
    // Newest first, like the search; formula starts neutralised, quotes doubled, Hebrew intact.
    expect(comments).toEqual(
      [...tricky].reverse().map((comment) => (/^[=+\-@\t\r]/.test(comment) ? `'${comment}` : comment)),
    );
    expect(text).toContain(`"She said ""hi"", then left"`);
    expect(text).toContain(`'=1+1,`);
    const first = rows[rows.length - 1];
    expect(first[PAYMENTS_CSV_HEADER.indexOf('amount')]).toBe('10.00');
    expect(first[PAYMENTS_CSV_HEADER.indexOf('userEmail')]).toBe(client.email);
    expect(first[PAYMENTS_CSV_HEADER.indexOf('createdAt')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('+3')).toBe("'+3");
  });

  it('holds exactly the rows the search finds for the same filters, in the same order', async () => {
    const body = { types: ['DEPOSIT'], sorts: [{ id: 'amount', desc: true }] };
    const searched = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ ...body, size: 100 });
    const page = searched.body as Page<Payment>;
    const rows = parseCsv((await exportCsv(admin, body)).body.slice(BOM.length)).slice(1);
    expect(rows.map((row) => Number(row[0]))).toEqual(page.content.map((payment) => payment.paymentId));
    expect(rows.map((row) => row[PAYMENTS_CSV_HEADER.indexOf('amount')])).toEqual(
      page.content.map((payment) => payment.amount.toFixed(2)),
    );
    const none = parseCsv((await exportCsv(admin, { statuses: ['REFUNDED'] })).body.slice(BOM.length));
    expect(none).toEqual([[...PAYMENTS_CSV_HEADER]]);
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
    let lineBreaks = 0;
    let received = 0;
    let chunks = 0;
    const { status } = await request((chunk) => {
      received += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) lineBreaks += 1;
      chunks += 1;
      if (chunks % CHUNKS_PER_HEAP_SAMPLE === 0) {
        collectGarbage();
        peak = Math.max(peak, liveBytes());
      }
    });
    expect(status).toBe(200);
    expect(lineBreaks).toBe(LARGE_EXPORT_ROWS + 1);
    // The file is more than twice the bound, and its rows as JavaScript objects far more: the export holds neither.
    expect(received).toBeGreaterThan(LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES * 2);
    expect(chunks).toBeGreaterThan(CHUNKS_PER_HEAP_SAMPLE * 5);
    expect(peak - baseline).toBeLessThan(LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES);

    // A reader that stops after its first chunk: the server must wait for the socket to drain, not queue the rest.
    const slow = await new Promise<{ lines: number; pausedGrowth: number }>((resolve, reject) => {
      const req = http.request(`${baseUrl}/api/payments/export`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      });
      req.on('response', (response) => {
        let lines = 0;
        let pausedGrowth = 0;
        let paused = false;
        response.on('data', (chunk: Buffer) => {
          for (const byte of chunk) if (byte === 0x0a) lines += 1;
          if (paused) return;
          paused = true;
          response.pause();
          collectGarbage();
          const before = liveBytes();
          setTimeout(() => {
            collectGarbage();
            pausedGrowth = liveBytes() - before;
            response.resume();
          }, SLOW_READER_PAUSE_MS);
        });
        response.on('end', () => resolve({ lines, pausedGrowth }));
        response.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ keyWord: 'seeded row' }));
    });
    expect(slow.lines).toBe(LARGE_EXPORT_ROWS + 1);
    expect(slow.pausedGrowth).toBeLessThan(LARGE_EXPORT_HEAP_GROWTH_MAX_BYTES);

    // A client that leaves after the first chunk: the cursor's transaction ends and its connection is released.
    await request((_chunk, req) => req.destroy());
    const deadline = Date.now() + 5000;
    let open: Array<{ count: number }> = [];
    do {
      await sleep(100);
      open = await testApp.dataSource.query(
        `SELECT count(*)::int AS count FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND (query ILIKE '%payments_export%') AND state <> 'idle'`,
      );
    } while (open[0].count > 0 && Date.now() < deadline);
    expect(open[0].count).toBe(0);
    const cursors: Array<{ count: number }> = await testApp.dataSource.query(
      'SELECT count(*)::int AS count FROM pg_cursors',
    );
    expect(cursors[0].count).toBe(0);
  });
});
