import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/** What one payment's detail tells its owner about what it paid for and who was on the other side. */
describe('GET /payments/{id}: details people can read', () => {
  let testApp: TestApp;
  let admin: string;
  let dana: ActiveUser;
  let omer: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp, { firstName: 'Dana', lastName: 'Cohen' });
    omer = await createActiveUser(testApp, { firstName: 'Omer', lastName: 'Levi' });
    const deposit = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: dana.userUuid, amount: 100, action: 'DEPOSIT', comment: 'fixture deposit' });
    expect(deposit.status).toBe(201);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const read = (token: string, paymentId: number) =>
    testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);

  it('names the package a balance payment bought, as bought, even after the package is renamed', async () => {
    const terms = {
      durationInMonths: 1,
      price: 10,
      currency: 'USD',
      isRecurrent: true,
      description: 'Every channel',
      features: ['HD'],
      status: 'ACTIVE',
    };
    const name = `Gold ${randomUUID().slice(0, 8)}`;
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({ name, ...terms });
    expect(plan.status).toBe(201);
    const bought = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.body.id}`)
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .send({ login: `tv.${randomUUID().slice(0, 8)}`, password: 'pass-1234' });
    expect(bought.status).toBe(201);
    const renamed = await testApp.http
      .put(`/api/payment-plans/${plan.body.id}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ name: `${name} renamed`, ...terms });
    expect(renamed.status).toBe(200);

    const search = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .send({ types: ['SUBSCRIPTION_PAYMENT'] });
    const [charge] = search.body.content as Payment[];
    expect(charge.paidFor).toEqual({ subscriptionId: bought.body.id, planName: name });

    const detail = await read(dana.accessToken, charge.paymentId);
    expect(detail.status).toBe(200);
    expect(detail.headers['cache-control']).toContain('no-store');
    expect(detail.body.paidFor).toEqual({ subscriptionId: bought.body.id, planName: name });
    // Another client's payment answers like a missing one.
    expect((await read(omer.accessToken, charge.paymentId)).status).toBe(404);
  });

  it("names the other side of a transfer by name, never by e-mail or uuid, on both sides' details", async () => {
    const sent = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .set('Idempotency-Key', randomUUID())
      .send({ recipient: omer.user.profileId, amount: 5 });
    expect(sent.status).toBe(201);
    const outgoing = await read(dana.accessToken, sent.body.paymentId);
    expect(outgoing.body).toMatchObject({ type: 'TRANSFER_OUT', counterpartyName: 'Omer Levi' });

    const received = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${omer.accessToken}`)
      .send({ types: ['TRANSFER_IN'] });
    const [incoming] = received.body.content as Payment[];
    const detail = await read(omer.accessToken, incoming.paymentId);
    expect(detail.body).toMatchObject({ type: 'TRANSFER_IN', counterpartyName: 'Dana Cohen' });
    const text = JSON.stringify(detail.body);
    expect(text).not.toContain(dana.email);
    expect(text).not.toContain(dana.userUuid);
    // Payments that are not transfers name no counterparty.
    const deposit = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .send({ types: ['DEPOSIT'] });
    const depositDetail = await read(dana.accessToken, (deposit.body.content as Payment[])[0].paymentId);
    expect(depositDetail.body.counterpartyName).toBeUndefined();
    expect(depositDetail.body).not.toHaveProperty('paidFor');
  });
});
