import { type Page, type Payment, PAYMENTS_CSV_COLUMNS, paymentsCsvHeader, type Plan } from '@kupa/proto';
import { adminToken } from '../../../../test-support/identity-fixtures';
import { parseStrictCsv } from '../../../../test-support/strict-csv';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { buy, createPlan, customerWithBalance, uniqueLogin } from '../../subscriptions.fixtures';

const column = (key: string): number => PAYMENTS_CSV_COLUMNS.findIndex((candidate) => candidate.key === key);

/** The promo code and its discount where staff and the client read payments (docs/adr/0088-promo-codes.md). */
describe('payments name the promo code they used', () => {
  let testApp: TestApp;
  let plan: Plan;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('shows the code and its discount in the staff list, the detail, the CSV and the client’s own list', async () => {
    const code = `LIST${Date.now().toString(36)}`.toUpperCase();
    const created = await testApp.http
      .post('/api/promo-codes')
      .set('Authorization', `Bearer ${admin}`)
      .send({ code, discountKind: 'PERCENT', percent: 25, appliesTo: ['PURCHASE'] });
    expect(created.status).toBe(201);
    const customer = await customerWithBalance(testApp, 20);
    const withCode = await buy(testApp, customer.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
      promoCode: code,
    });
    expect(withCode.status).toBe(201);
    const withoutCode = await buy(testApp, customer.accessToken, plan.id, {
      login: uniqueLogin(),
      password: 'secret pass 1',
    });
    expect(withoutCode.status).toBe(201);

    const staffList = await testApp.http
      .post(`/api/payments/search/${customer.userUuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({});
    const rows = (staffList.body as Page<Payment>).content;
    // Newest first: the plain purchase, the discounted one, the deposit.
    expect(rows.map((row) => [row.type, row.amount, row.promoCode])).toEqual([
      ['SUBSCRIPTION_PAYMENT', 10, undefined],
      ['SUBSCRIPTION_PAYMENT', 7.5, { code, discount: 2.5 }],
      ['DEPOSIT', 20, undefined],
    ]);
    expect(rows[0]).not.toHaveProperty('promoCode');
    const discounted = rows[1];

    const staffDetail = await testApp.http
      .get(`/api/payments/${discounted.paymentId}`)
      .set('Authorization', `Bearer ${admin}`);
    expect(staffDetail.body.promoCode).toEqual({ code, discount: 2.5 });
    const ownDetail = await testApp.http
      .get(`/api/payments/${discounted.paymentId}`)
      .set('Authorization', `Bearer ${customer.accessToken}`);
    expect(ownDetail.body.promoCode).toEqual({ code, discount: 2.5 });
    const ownList = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ types: ['SUBSCRIPTION_PAYMENT'] });
    expect((ownList.body as Page<Payment>).content.map((row) => row.promoCode ?? null)).toEqual([
      null,
      { code, discount: 2.5 },
    ]);

    const exported = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ keyWord: customer.email })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    expect(exported.status).toBe(200);
    const [header, ...records] = parseStrictCsv((exported.body as string).slice(1));
    expect(header).toEqual(paymentsCsvHeader('en', 'UTC'));
    expect(header.slice(-2)).toEqual(['Promo code', 'Promo discount']);
    expect(
      records.map((record) => [record[column('amount')], record[column('promoCode')], record[column('promoDiscount')]]),
    ).toEqual([
      ['-10.00', '', ''],
      ['-7.50', code, '2.50'],
      ['20.00', '', ''],
    ]);
  });

  it('filters the payments search and the export by the code a payment used, in any case', async () => {
    const code = `FILT${Date.now().toString(36)}`.toUpperCase();
    await testApp.http
      .post('/api/promo-codes')
      .set('Authorization', `Bearer ${admin}`)
      .send({ code, discountKind: 'PERCENT', percent: 10, appliesTo: ['PURCHASE'] })
      .expect(201);
    const customer = await customerWithBalance(testApp, 30);
    for (const promoCode of [code, undefined])
      expect(
        (
          await buy(testApp, customer.accessToken, plan.id, {
            login: uniqueLogin(),
            password: 'secret pass 1',
            promoCode,
          })
        ).status,
      ).toBe(201);
    const search = (body: object, token = admin) =>
      testApp.http.post('/api/payments/search').set('Authorization', `Bearer ${token}`).send(body);

    const filtered = await search({ promoCode: code.toLowerCase() });
    expect(filtered.status).toBe(200);
    const page = filtered.body as Page<Payment>;
    expect(page.totalElements).toBe(1);
    expect(page.content.map((row) => [row.userUuid, row.amount, row.promoCode])).toEqual([
      [customer.userUuid, 9, { code, discount: 1 }],
    ]);
    const own = (await search({ promoCode: code }, customer.accessToken)).body as Page<Payment>;
    expect(own.content.map((row) => row.amount)).toEqual([9]);
    expect(((await search({ promoCode: 'NOSUCHCODE' })).body as Page<Payment>).totalElements).toBe(0);
    for (const bad of ['x', 'has space', 'a'.repeat(33), 42]) {
      const refused = await search({ promoCode: bad });
      expect(refused.status).toBe(400);
    }

    const exported = await testApp.http
      .post('/api/payments/export')
      .set('Authorization', `Bearer ${admin}`)
      .send({ promoCode: code })
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    const [, ...records] = parseStrictCsv((exported.body as string).slice(1));
    expect(records.map((record) => [record[column('amount')], record[column('promoCode')]])).toEqual([['-9.00', code]]);
  });
});
