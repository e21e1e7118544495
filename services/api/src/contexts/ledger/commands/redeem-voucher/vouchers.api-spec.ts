import {
  type AuditLog,
  auditSentence,
  type GeneratedVoucherBatch,
  type Page,
  type VoucherBatch,
  type VoucherBatchList,
  type VoucherRedemption,
} from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { LedgerVerifier } from '../../../../operations/verify';
import { InlineProjectionRegistry } from '../../../../platform/projections';
import { balanceMinorOf, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

const MISSES_PER_ACCOUNT = 3;

describe('prepaid vouchers', () => {
  let testApp: TestApp;
  let admin: string;
  let clients: ActiveUser[];
  let manager: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_VOUCHER_MISSES_PER_ACCOUNT: `${MISSES_PER_ACCOUNT}/15m` } });
    admin = await adminToken(testApp);
    clients = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => createActiveUser(testApp)));
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const generate = async (count: number, amount: number): Promise<GeneratedVoucherBatch> => {
    const response = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: 'Winter fair', count, amount });
    expect(response.status).toBe(201);
    return response.body as GeneratedVoucherBatch;
  };
  const fund = (batchId: string, funding: string, token = admin) =>
    testApp.http
      .post(`/api/vouchers/batches/${batchId}/funding`)
      .set('Authorization', `Bearer ${token}`)
      .send({ funding, comment: 'paid in cash at the fair' });
  const redeem = (client: ActiveUser, code: string) =>
    testApp.http.post('/api/vouchers/redeem').set('Authorization', `Bearer ${client.accessToken}`).send({ code });
  const liabilityMinor = async (): Promise<number> => {
    const rows: Array<{ total: string | null }> = await testApp.dataSource.query(
      `SELECT sum(amount_minor)::text AS total FROM ledger_entries WHERE account = 'liability:vouchers'`,
    );
    return Number(rows[0].total ?? 0);
  };

  it('generates a batch whose codes never reach an event and are stored only hashed and sealed', async () => {
    const generated = await generate(3, 15);
    expect(generated.codes).toHaveLength(3);
    expect(new Set(generated.codes).size).toBe(3);
    for (const code of generated.codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(generated.batch).toMatchObject({ count: 3, amount: 15, funding: null, redeemedCount: 0, outstanding: 0 });
    const stored: Array<{ code_hash: string; sealed_code: string }> = await testApp.dataSource.query(
      'SELECT code_hash, sealed_code FROM voucher_codes WHERE batch_id = $1',
      [generated.batch.id],
    );
    const plain = generated.codes.map((code) => code.replace(/-/g, ''));
    for (const row of stored) {
      for (const code of plain) {
        expect(row.code_hash).not.toContain(code);
        expect(row.sealed_code).not.toContain(code);
      }
    }
    const events: Array<{ data: unknown }> = await testApp.dataSource.query(
      `SELECT data FROM events WHERE stream_id = $1`,
      [`voucher-batch-${generated.batch.id}`],
    );
    for (const code of plain) expect(JSON.stringify(events)).not.toContain(code);
  });

  it('a code of a batch neither sold nor given away does not redeem, and spends no guess', async () => {
    const { batch, codes } = await generate(1, 5);
    const refused = await redeem(clients[0], codes[0]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('error.voucher.batch.not.funded');
    expect(await balanceMinorOf(testApp, clients[0].userUuid)).toBe(0);
    expect((await fund(batch.id, 'GIVEN_AWAY')).status).toBe(200);
    expect((await redeem(clients[0], codes[0].toLowerCase())).status).toBe(201);
    expect(await balanceMinorOf(testApp, clients[0].userUuid)).toBe(500);
  });

  it('sale funds the liability; of five simultaneous redemptions of one code exactly one credits', async () => {
    const before = await liabilityMinor();
    const { batch, codes } = await generate(2, 25);
    const sold = await fund(batch.id, 'SOLD');
    expect(sold.status).toBe(200);
    expect((sold.body as VoucherBatch).outstanding).toBe(50);
    expect(await liabilityMinor()).toBe(before + 5000);
    expect((await fund(batch.id, 'GIVEN_AWAY')).body.error).toBe('error.voucher.batch.already.funded');

    const racers = clients.slice(1, 6);
    const answers = await Promise.all(racers.map((client) => redeem(client, codes[1])));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((one) => one.status === 409))
      expect(answer.body.error).toBe('error.voucher.code.already.redeemed');
    const winner = racers[answers.findIndex((answer) => answer.status === 201)];
    const won = answers.find((answer) => answer.status === 201)!.body as VoucherRedemption;
    expect(won).toMatchObject({ amount: 25, balance: 25 });
    const balances = await Promise.all(racers.map((client) => balanceMinorOf(testApp, client.userUuid)));
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(2500);
    expect(await balanceMinorOf(testApp, winner.userUuid)).toBe(2500);
    expect(await liabilityMinor()).toBe(before + 2500);

    const payment = await testApp.http
      .get(`/api/payments/${won.paymentId}`)
      .set('Authorization', `Bearer ${winner.accessToken}`);
    expect(payment.body).toMatchObject({ type: 'DEPOSIT', method: 'VOUCHER', amount: 25, status: 'SUCCESS' });

    const again = await redeem(winner, codes[1]);
    expect(again.status).toBe(409);
    await expectReadModelsToEqualReplay(testApp);
  });

  it('lists batches with what they still owe and exports the codes with who redeemed them', async () => {
    const { batch, codes } = await generate(2, 10);
    await fund(batch.id, 'GIVEN_AWAY');
    await redeem(clients[6], codes[0]);
    const list = await testApp.http.get('/api/vouchers/batches').set('Authorization', `Bearer ${admin}`);
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    const body = list.body as VoucherBatchList;
    expect(body.items.find((item) => item.id === batch.id)).toMatchObject({
      funding: 'GIVEN_AWAY',
      redeemedCount: 1,
      outstanding: 10,
    });
    expect(Math.round(body.outstandingTotal * 100)).toBe(await liabilityMinor());

    const csv = await testApp.http
      .get(`/api/vouchers/batches/${batch.id}/codes.csv`)
      .set('Authorization', `Bearer ${admin}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('code,amount,redeemedAt,redeemedBy');
    expect(lines[1]).toContain(codes[0]);
    expect(lines[1]).toContain(clients[6].email);
    expect(lines[2]).toBe(`${codes[1]},10.00,,`);
  });

  it('rate limits wrong codes per account, and a wrong code is a 404, never a 500', async () => {
    const guesser = clients[0];
    for (let attempt = 0; attempt < MISSES_PER_ACCOUNT; attempt += 1) {
      const miss = await redeem(guesser, attempt === 0 ? 'not a code at all' : 'ZZZZ-ZZZZ-ZZZZ-ZZZZ');
      expect(miss.status).toBe(404);
      expect(miss.body.error).toBe('error.voucher.code.invalid');
    }
    const limited = await redeem(guesser, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(limited.status).toBe(429);
    expect((await redeem(guesser, '')).status).toBe(429);
  });

  it('kupa ledger verify agrees with the vouchers, and names a batch row that drifted from its events', async () => {
    const verifier = new LedgerVerifier(testApp.dataSource, testApp.app.get(InlineProjectionRegistry));
    const clean = await verifier.verify();
    expect(clean.differences).toEqual([]);
    expect(clean.ok).toBe(true);

    const [{ id }]: Array<{ id: string }> = await testApp.dataSource.query(
      'SELECT id FROM voucher_batches WHERE redeemed_count > 0 LIMIT 1',
    );
    await testApp.dataSource.query('UPDATE voucher_batches SET redeemed_count = redeemed_count - 1 WHERE id = $1', [
      id,
    ]);
    try {
      const drifted = await verifier.verify();
      expect(drifted.ok).toBe(false);
      expect(JSON.stringify(drifted.differences)).toContain('voucher_batches');
    } finally {
      await testApp.dataSource.query('UPDATE voucher_batches SET redeemed_count = redeemed_count + 1 WHERE id = $1', [
        id,
      ]);
    }
  });

  it('tells the batch in the activity log by its label, in both languages, and never a code', async () => {
    const response = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: 'Spring market', count: 2, amount: 12.5 });
    expect(response.status).toBe(201);
    const { batch, codes } = response.body as GeneratedVoucherBatch;
    expect((await fund(batch.id, 'SOLD')).status).toBe(200);
    const redeemed = await redeem(clients[3], codes[1]);
    expect(redeemed.status).toBe(201);
    const { paymentId } = redeemed.body as VoucherRedemption;

    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [batch.id] });
    expect(log.status).toBe(200);
    const entries = (log.body as Page<AuditLog>).content;
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const sentences = (lang: 'he' | 'en') => entries.map((entry) => plain(auditSentence(entry, lang))).sort();
    const client = `${clients[3].user.firstName} ${clients[3].user.lastName} (${clients[3].email})`;
    expect(sentences('en')).toEqual(
      [
        'Voucher batch Spring market: 2 vouchers generated, each worth $12.50',
        'Voucher batch Spring market: the batch was sold, $25.00 owed to holders (paid in cash at the fair)',
        `Voucher batch Spring market: code #2 redeemed by ${client}, $12.50 as payment #${paymentId}`,
      ].sort(),
    );
    expect(sentences('he')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^סדרת שוברים Spring market: נוצרה סדרה של 2 שוברים/),
        expect.stringMatching(/^סדרת שוברים Spring market: הסדרה נמכרה/),
        expect.stringMatching(
          new RegExp(
            `^סדרת שוברים Spring market: קוד #2 מומש על ידי ${escaped(client)}, 12\\.50.\\$ לתשלום #${paymentId}$`,
          ),
        ),
      ]),
    );
    const everything = JSON.stringify(log.body);
    for (const code of codes) {
      expect(everything).not.toContain(code);
      expect(everything).not.toContain(code.replace(/-/g, ''));
    }
    // The client's own entries hold the redemption too, under them.
    const clientLog = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [clients[3].userUuid] });
    expect((clientLog.body as Page<AuditLog>).content.map((entry) => entry.eventType)).toContain('VoucherCodeRedeemed');
  });

  it('refuses bad input with catalogue codes and keeps staff routes for admins', async () => {
    const bad = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: '', count: 1001, amount: -1 });
    expect(bad.status).toBe(400);
    expect((await fund('00000000-0000-4000-8000-000000000000', 'SOLD')).status).toBe(404);
    expect((await fund('not-a-uuid', 'SOLD')).status).toBe(404);
    const { batch } = await generate(1, 1);
    expect((await fund(batch.id, 'FREE')).status).toBe(400);
    expect((await fund(batch.id, 'SOLD', manager.accessToken)).status).toBe(403);
    const asClient = await testApp.http
      .get('/api/vouchers/batches')
      .set('Authorization', `Bearer ${clients[1].accessToken}`);
    expect(asClient.status).toBe(403);
    const staffRedeem = await testApp.http
      .post('/api/vouchers/redeem')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ code: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ' });
    expect(staffRedeem.status).toBe(403);
  });
});
