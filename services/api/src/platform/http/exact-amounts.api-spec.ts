import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { AMOUNT_FIELD_NAMES } from './exact-amounts';

/**
 * Amounts are taken exactly as written (docs/adr/0058-money-paths-keep-their-promises.md): on every route that takes
 * one, forms that JSON.parse would round or read differently are refused with 400 and a catalogue code, and plain
 * dollars and cents are accepted. The bodies are sent as raw JSON text, the way a probe writes them.
 */
describe('amounts are exact on every money route', () => {
  let testApp: TestApp;
  let admin: string;
  let payer: ActiveUser;
  let recipient: ActiveUser;
  let planId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    payer = await createActiveUser(testApp);
    recipient = await createActiveUser(testApp);
    await send(
      'POST',
      '/api/payments',
      admin,
      json({ userUuid: payer.userUuid, amount: 500, action: 'DEPOSIT', comment: 'float' }),
    );
    planId = (await send('POST', '/api/payment-plans', admin, planBody('20'))).body.id as string;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const json = (value: object) => JSON.stringify(value);
  const send = (method: 'POST' | 'PUT', url: string, token: string, body: string) =>
    (method === 'POST' ? testApp.http.post(url) : testApp.http.put(url))
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(body);
  const planBody = (price: string) =>
    `{"name":"Exact ${randomUUID().slice(0, 8)}","durationInMonths":1,"price":${price},"currency":"USD",` +
    `"isRecurrent":true,"description":"","features":[],"status":"ACTIVE"}`;

  /** Each route that takes an amount, the body with the amount written as given, and what it answers when accepted. */
  const routes: Array<{
    route: string;
    field: string;
    call: (amount: string) => ReturnType<typeof send>;
    accepted: number;
  }> = [
    {
      route: 'POST /payments',
      field: 'amount',
      call: (amount) =>
        send(
          'POST',
          '/api/payments',
          admin,
          `{"userUuid":"${payer.userUuid}","amount":${amount},"action":"DEPOSIT","comment":"probe"}`,
        ),
      accepted: 201,
    },
    {
      route: 'POST /payments/transfer',
      field: 'amount',
      call: (amount) =>
        send(
          'POST',
          '/api/payments/transfer',
          payer.accessToken,
          `{"recipient":"${recipient.email}","amount":${amount}}`,
        ),
      accepted: 201,
    },
    {
      route: 'POST /payments/crypto/deposit',
      field: 'amount',
      call: (amount) =>
        send(
          'POST',
          '/api/payments/crypto/deposit',
          recipient.accessToken,
          `{"amount":${amount},"method":"CRYPTO_BTC"}`,
        ),
      accepted: 201,
    },
    {
      route: 'POST /payment-plans',
      field: 'price',
      call: (amount) => send('POST', '/api/payment-plans', admin, planBody(amount)),
      accepted: 201,
    },
    {
      route: 'PUT /payment-plans/{id}',
      field: 'price',
      call: (amount) => send('PUT', `/api/payment-plans/${planId}`, admin, planBody(amount)),
      accepted: 200,
    },
    {
      route: 'POST /payment-plans/search',
      field: 'price.from',
      call: (amount) => send('POST', '/api/payment-plans/search', admin, `{"price":{"from":${amount},"to":${amount}}}`),
      accepted: 200,
    },
    {
      route: 'POST /subscriptions/search',
      field: 'price.from',
      call: (amount) => send('POST', '/api/subscriptions/search', admin, `{"price":{"from":${amount},"to":${amount}}}`),
      accepted: 200,
    },
  ];

  it('covers every amount field a DTO declares', () => {
    const covered = new Set(routes.map((route) => route.field.split('.').pop()));
    expect([...AMOUNT_FIELD_NAMES].sort()).toEqual([...covered, 'to'].sort());
  });

  const refused: Array<[string, string]> = [
    ['1E-2', 'error.validation.invalid.input'],
    ['1e2', 'error.validation.invalid.input'],
    ['12.345', 'error.validation.max.decimal.places'],
    ['1.0000000000000001', 'error.validation.max.decimal.places'],
    ['-0', 'error.validation.must.be.positive'],
  ];

  it.each(routes.map((route) => [route.route, route] as const))(
    '%s refuses inexact amounts and takes exact ones',
    async (_name, route) => {
      const before = await testApp.dataSource.query('SELECT count(*)::int AS events FROM events');
      for (const [amount, error] of refused) {
        const answer = await route.call(amount);
        expect([amount, answer.status, answer.body.error]).toEqual([amount, 400, 'error.validation.failed']);
        expect(answer.body.details.fields).toContainEqual(expect.objectContaining({ field: route.field, error }));
      }
      // Not JSON at all: refused before any field is looked at.
      const hex = await route.call('0x10');
      expect([hex.status, hex.body.error]).toEqual([400, 'error.bad.request']);
      // Refusals lose nothing and change nothing.
      expect(await testApp.dataSource.query('SELECT count(*)::int AS events FROM events')).toEqual(before);

      for (const amount of ['12.5', '12.50', '12']) {
        const answer = await route.call(amount);
        expect([amount, answer.status]).toEqual([amount, route.accepted]);
      }
    },
  );

  it('records an accepted amount to the cent', async () => {
    const answer = await routes[0].call('12.50');
    expect(answer.body.amount).toBe(12.5);
  });
});
