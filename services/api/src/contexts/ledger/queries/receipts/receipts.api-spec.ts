import type { Receipt } from '@kupa/proto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

const OPERATOR_ENV = {
  OPERATOR_NAME: 'קופה בע״מ',
  OPERATOR_ADDRESS: 'רחוב הרצל 1, תל אביב',
  OPERATOR_TAX_ID: '514000000',
};

/** pdftotext marks its right-to-left and left-to-right runs with embedding controls; the words are what we compare. */
const BIDI_CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** The text of a PDF as poppler-utils extracts it (logical order), one trimmed line per entry. */
function pdfText(pdf: Buffer): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'kupa-receipt-'));
  try {
    const file = join(folder, 'receipt.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    // And it must render as a page a person can look at: pdftoppm draws it, the PNG is not blank-sized.
    execFileSync('pdftoppm', ['-r', '40', '-png', '-singlefile', file, join(folder, 'page')]);
    expect(readFileSync(join(folder, 'page.png')).length).toBeGreaterThan(2_000);
    return text
      .replace(BIDI_CONTROLS, '')
      .replace(/\u00A0/g, ' ')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('receipts (docs/product.md, Receipts; ADR 0097)', () => {
  let testApp: TestApp;
  let admin: string;
  let dana: ActiveUser;
  let omer: ActiveUser;
  let planId: string;
  let planName: string;

  beforeAll(async () => {
    testApp = await startTestApp({ env: OPERATOR_ENV });
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp, { firstName: 'דנה', lastName: 'כהן', language: 'he' });
    omer = await createActiveUser(testApp, { firstName: 'Omer', lastName: 'Levi', language: 'en' });
    planName = `Premium HD ${randomUUID().slice(0, 4)}`;
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: planName,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      })
      .expect(201);
    planId = plan.body.id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const deposit = (userUuid: string, amount: number) =>
    testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid, amount, action: 'DEPOSIT', comment: 'receipt fixture' });
  const buy = (user: ActiveUser, body: Record<string, unknown> = {}) =>
    testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({ login: `tv.${randomUUID().slice(0, 8)}`, password: 'pass-1234', ...body });
  const listOf = async (user: ActiveUser): Promise<Receipt[]> => {
    const response = await testApp.http.get('/api/receipts').set('Authorization', `Bearer ${user.accessToken}`);
    expect(response.status).toBe(200);
    return response.body.items as Receipt[];
  };
  const receiptsFor = (user: ActiveUser, count: number) =>
    eventually(
      () => listOf(user),
      (items) => items.length >= count,
      `${count} receipts for ${user.email}`,
    );
  const numbering = async (): Promise<{ count: number; max: number; distinct: number }> => {
    const [row]: Array<{ count: string; max: string | null; distinct: string }> = await testApp.dataSource.query(
      'SELECT count(*)::text AS count, max(number)::text AS max, count(DISTINCT number)::text AS distinct FROM receipts',
    );
    return { count: Number(row!.count), max: Number(row!.max ?? 0), distinct: Number(row!.distinct) };
  };

  it('gives a deposit and a purchase each a receipt: method, amounts, discount, the balance after, a mail', async () => {
    await deposit(dana.userUuid, 25).expect(201);
    const promo = `SAVE${randomUUID().slice(0, 6).toUpperCase()}`;
    await testApp.http
      .post('/api/promo-codes')
      .set('Authorization', `Bearer ${admin}`)
      .send({ code: promo, discountKind: 'PERCENT', percent: 20, appliesTo: ['PURCHASE'] })
      .expect(201);
    await buy(dana, { promoCode: promo }).expect(201);

    const [purchase, money] = await receiptsFor(dana, 2);
    expect(money).toMatchObject({
      kind: 'DEPOSIT',
      method: 'MANUAL_TRANSFER',
      amount: 25,
      amountAsked: null,
      balanceAfter: 25,
      clientEmail: dana.email,
      clientName: 'דנה כהן',
    });
    expect(purchase).toMatchObject({
      kind: 'PURCHASE',
      method: 'BALANCE',
      amount: 8,
      listPrice: 10,
      discount: 2,
      discountKind: 'PROMO_CODE',
      promoCode: promo,
      planName,
      balanceAfter: 17,
    });
    expect(purchase!.number).toBe(money!.number + 1);

    const one = await testApp.http
      .get(`/api/receipts/${purchase!.number}`)
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .expect(200);
    expect(one.body).toEqual(purchase);
    expect(one.headers['cache-control']).toBe('no-store');

    const mail = await testApp.mailbox.waitFor(dana.email, (received) =>
      received.text.includes(`/receipts/${purchase!.number}`),
    );
    expect(mail.subject).toContain(`קבלה מס׳ ${purchase!.number}`);
  });

  it("answers another client's receipt, and a number that names none, like a missing one", async () => {
    const [mine] = await receiptsFor(dana, 1);
    for (const path of [`/api/receipts/${mine!.number}`, `/api/receipts/${mine!.number}/pdf`, '/api/receipts/0x1']) {
      const response = await testApp.http.get(path).set('Authorization', `Bearer ${omer.accessToken}`);
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('error.receipt.not.found');
    }
    expect(await listOf(omer)).toEqual([]);
    const staff = await testApp.http
      .get(`/api/users/${dana.userUuid}/receipts`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(staff.body.items.map((receipt: Receipt) => receipt.number)).toContain(mine!.number);
  });

  it('prints the receipt in Hebrew and in English, with the operator from configuration', async () => {
    const [purchase] = await receiptsFor(dana, 2);
    const hebrew = await testApp.rawHttp
      .get(`/api/receipts/${purchase!.number}/pdf`)
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(hebrew.status).toBe(200);
    expect(hebrew.headers['content-type']).toBe('application/pdf');
    expect(hebrew.headers['cache-control']).toBe('no-store');
    expect(hebrew.headers['content-language']).toBe('he');
    const he = pdfText(hebrew.body as Buffer);
    // Whole lines where poppler gives the line back as typed: Hebrew phrases, amounts, the package's Latin name.
    expect(he).toEqual(
      expect.arrayContaining([
        `קבלה מס׳ ${purchase!.number}`,
        'רכישת חבילה',
        'אמצעי תשלום',
        'יתרה',
        planName,
        'מחיר מחירון',
        '10.00 $',
        'סכום ששולם',
        'יתרה אחרי התשלום',
        '17.00 $',
        'קופה בע״מ',
        'מספר עוסק 514000000',
      ]),
    );
    // Lines that mix directions with punctuation: poppler may move a full stop or a bracket across a run's edge, so
    // these are compared word by word, in order.
    const words = he.map((line) =>
      line
        .replace(/[,()<>]|\.(?=\s|$)|(?<=\s)\./g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(words).toContain('קבלה על תשלום אינה חשבונית מס');
    expect(words).toContain(`דנה כהן ${dana.email}`);
    // The discount line (an isolated amount, then a Hebrew phrase in brackets) is the one poppler joins with the
    // amount under it; its parts are there.
    expect(he.join('\n')).toContain('קוד קופון');
    expect(he.join('\n')).toContain('8.00 $');
    expect(he.join('\n')).toContain('רחוב הרצל');

    const english = await testApp.rawHttp
      .get(`/api/users/${dana.userUuid}/receipts/${purchase!.number}/pdf`)
      .set('Authorization', `Bearer ${admin}`)
      .set('Accept-Language', 'en')
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(english.status).toBe(200);
    const en = pdfText(english.body as Buffer);
    expect(en).toEqual(
      expect.arrayContaining([
        `Receipt No. ${purchase!.number}`,
        'Package purchase',
        'Payment method',
        'Balance',
        planName,
        'Amount paid',
        '$8.00',
        '$10.00',
        'Balance after',
        '$17.00',
        'A receipt for a payment. It is not a tax invoice.',
        'Tax ID 514000000',
      ]),
    );
  });

  it('numbers receipts uniquely and without gaps under concurrent payments; a failed payment takes none', async () => {
    const clients = await Promise.all(
      [0, 1, 2].map(() => createActiveUser(testApp, { firstName: 'Race', lastName: 'Client' })),
    );
    const before = await numbering();
    // Each client: four deposits of $3 and four purchases at $10 side by side; the balance covers at most one purchase.
    const results = await Promise.all(
      clients.flatMap((client) => [
        ...[1, 2, 3, 4].map(() => deposit(client.userUuid, 3)),
        ...[1, 2, 3, 4].map(() => buy(client)),
      ]),
    );
    const succeeded = results.filter((response) => response.status === 201).length;
    const refused = results.filter((response) => response.status === 409).length;
    expect(succeeded + refused).toBe(results.length);
    expect(refused).toBeGreaterThan(0);

    const expected = before.count + succeeded;
    const after = await eventually(numbering, (state) => state.count >= expected, `${expected} receipts`);
    expect(after).toEqual({ count: expected, max: expected, distinct: expected });
    for (const client of clients) {
      const items = await listOf(client);
      const deposits = items.filter((receipt) => receipt.kind === 'DEPOSIT');
      const purchases = items.filter((receipt) => receipt.kind === 'PURCHASE');
      expect(deposits).toHaveLength(4);
      // A refused purchase appended nothing, so it has no receipt: only those that went through have one.
      const bought = await testApp.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE user_uuid = $1 AND type = 'SUBSCRIPTION_PAYMENT'`,
        [client.userUuid],
      );
      expect(purchases).toHaveLength(bought[0].n);
    }
  });
});
