import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, depositAs, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

describe('POST /payments/transfer', () => {
  let testApp: TestApp;
  let sender: ActiveUser;
  let recipient: ActiveUser;
  let manager: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    [sender, recipient, manager] = await Promise.all([
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'AMBASSADOR' }),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const transfer = (from: ActiveUser | null, body: unknown, key?: string) => {
    let call = testApp.http.post('/api/payments/transfer');
    if (from) call = call.set('Authorization', `Bearer ${from.accessToken}`);
    if (key !== undefined) call = call.set('Idempotency-Key', key);
    return call.send(body as object);
  };

  it('moves balance by e-mail (any case) or profile ID and answers the TRANSFER_OUT payment', async () => {
    await depositAs(testApp, sender.userUuid, 100);
    const byEmail = await transfer(sender, { recipient: recipient.email.toUpperCase(), amount: 30.25 });
    expect(byEmail.status).toBe(201);
    const out = byEmail.body as Payment;
    expect(out).toMatchObject({
      userUuid: sender.userUuid,
      type: 'TRANSFER_OUT',
      amount: 30.25,
      status: 'SUCCESS',
      aggregator: 'INTERNAL',
      method: 'BALANCE',
      senderProfileId: sender.user.profileId,
      recipientProfileId: recipient.user.profileId,
    });
    const incoming: Array<{ payment_id: string; type: string; transfer_id: string }> = await testApp.dataSource.query(
      'SELECT payment_id, type, transfer_id FROM payments WHERE transfer_id = $1 ORDER BY payment_id',
      [out.transferId],
    );
    expect(incoming.map((row) => row.type)).toEqual(['TRANSFER_OUT', 'TRANSFER_IN']);
    const own = await testApp.http
      .get(`/api/payments/${incoming[1].payment_id}`)
      .set('Authorization', `Bearer ${recipient.accessToken}`);
    expect(own.body).toMatchObject({
      userUuid: recipient.userUuid,
      type: 'TRANSFER_IN',
      amount: 30.25,
      transferId: out.transferId,
      // The recipient learns who sent it by the profile ID the payment already shows, never by e-mail.
      createdBy: sender.user.profileId,
      updatedBy: sender.user.profileId,
    });
    expect(own.body).not.toHaveProperty('comment');
    expect(JSON.stringify(own.body)).not.toContain(sender.email);
    expect(out).not.toHaveProperty('comment');
    expect(out).toMatchObject({ createdBy: sender.email, publicNote: null });
    const notYours = await testApp.http
      .get(`/api/payments/${out.paymentId}`)
      .set('Authorization', `Bearer ${recipient.accessToken}`);
    expect(notYours.status).toBe(404);

    const byProfile = await transfer(sender, { recipient: recipient.user.profileId, amount: 0.75 });
    expect(byProfile.status).toBe(201);
    expect(await balanceMinorOf(testApp, sender.userUuid)).toBe(6900);
    expect(await balanceMinorOf(testApp, recipient.userUuid)).toBe(3100);
    const transaction: Array<{ total: string }> = await testApp.dataSource.query(
      'SELECT sum(amount_minor)::text AS total FROM ledger_entries WHERE payment_id = $1',
      [out.paymentId],
    );
    expect(transaction).toEqual([{ total: '0' }]);
  });

  it('refuses unknown or inactive recipients, oneself and more than the balance', async () => {
    const poor = await createActiveUser(testApp);
    const unknown = await transfer(poor, { recipient: 'nobody@example.com', amount: 1 });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'error.user.not.found']);
    expect((await transfer(poor, { recipient: '00000000', amount: 1 })).body.error).toBe('error.user.not.found');
    const blocked = await createActiveUser(testApp);
    await testApp.http
      .put(`/api/users/${blocked.userUuid}/status`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ status: 'BLOCKED' });
    expect((await transfer(sender, { recipient: blocked.email, amount: 1 })).body.error).toBe('error.user.not.found');
    // Transfers are between customers: a staff account answers like an unknown one.
    expect((await transfer(sender, { recipient: manager.email, amount: 1 })).body.error).toBe('error.user.not.found');
    const self = await transfer(sender, { recipient: sender.user.profileId, amount: 1 });
    expect([self.status, self.body.error]).toEqual([409, 'error.transfer.to.self']);
    const broke = await transfer(poor, { recipient: recipient.email, amount: 0.01 });
    expect([broke.status, broke.body.error]).toEqual([409, 'error.insufficient.balance']);
  });

  it('lets exactly K of 50 parallel transfers through when the balance covers K', async () => {
    const [payer, payee] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    const coveredTransfers = 17;
    await depositAs(testApp, payer.userUuid, coveredTransfers * 3);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => transfer(payer, { recipient: payee.email, amount: 3 })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(coveredTransfers);
    expect(
      responses
        .filter((response) => response.status !== 201)
        .every((response) => response.body.error === 'error.insufficient.balance'),
    ).toBe(true);
    expect(await balanceMinorOf(testApp, payer.userUuid)).toBe(0);
    expect(await balanceMinorOf(testApp, payee.userUuid)).toBe(coveredTransfers * 300);
  });

  it('runs 40 crossing transfers each way without a deadlock and conserves the total', async () => {
    const [left, right] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    // Told in the portal only: 80 transfer mails (ADR 0105) would queue ahead of the next test's sign-up mails.
    for (const user of [left, right])
      await testApp.http
        .put('/api/users/me/notification-preferences')
        .set('Authorization', `Bearer ${user.accessToken}`)
        .send({ channels: { transfers: ['portal'] } })
        .expect(200);
    await Promise.all([depositAs(testApp, left.userUuid, 100), depositAs(testApp, right.userUuid, 100)]);
    const crossing = Array.from({ length: 40 }, () => [
      transfer(left, { recipient: right.email, amount: 1.5 }),
      transfer(right, { recipient: left.email, amount: 2.25 }),
    ]).flat();
    const responses = await Promise.all(crossing);
    expect(responses.map((response) => response.status)).toEqual(Array(80).fill(201));
    const [leftMinor, rightMinor] = await Promise.all([
      balanceMinorOf(testApp, left.userUuid),
      balanceMinorOf(testApp, right.userUuid),
    ]);
    expect(leftMinor + rightMinor).toBe(20000);
    expect(leftMinor).toBe(10000 - 40 * 150 + 40 * 225);
  });

  it('answers repeats of an Idempotency-Key, sequential or concurrent, with the first body and moves money once', async () => {
    const [payer, payee] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    await depositAs(testApp, payer.userUuid, 10);
    const key = randomUUID();
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => transfer(payer, { recipient: payee.email, amount: 6 }, key)),
    );
    expect(concurrent.map((response) => response.status)).toEqual(Array(10).fill(201));
    for (const response of concurrent) expect(response.body).toEqual(concurrent[0].body);
    // The balance no longer covers a second transfer, yet the repeat still answers the first success.
    const sequential = await transfer(payer, { recipient: payee.email, amount: 6 }, key);
    expect([sequential.status, sequential.body]).toEqual([201, concurrent[0].body]);
    expect(await balanceMinorOf(testApp, payer.userUuid)).toBe(400);
    expect(await balanceMinorOf(testApp, payee.userUuid)).toBe(600);
    const reused = await transfer(payer, { recipient: payee.email, amount: 1 }, key);
    expect([reused.status, reused.body.error]).toEqual([409, 'error.idempotency.key.reused']);
    // Keys belong to their actor: another client may use the same one.
    await depositAs(testApp, payee.userUuid, 1);
    expect((await transfer(payee, { recipient: payer.email, amount: 1 }, key)).status).toBe(201);
    expect((await transfer(payer, { recipient: payee.email, amount: 1 }, 'x'.repeat(256))).status).toBe(400);
  });

  it('is for clients and ambassadors, with bad input refused by catalogue codes', async () => {
    expect((await transfer(null, { recipient: recipient.email, amount: 1 })).status).toBe(401);
    expect((await transfer(manager, { recipient: recipient.email, amount: 1 })).status).toBe(403);
    const admin = await adminToken(testApp);
    const asAdmin = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${admin}`)
      .send({ recipient: recipient.email, amount: 1 });
    expect(asAdmin.status).toBe(403);
    const fieldError = async (body: Record<string, unknown>, field: string) => {
      const response = await transfer(sender, { recipient: recipient.email, amount: 1, ...body });
      expect(response.status).toBe(400);
      return response.body.details.fields.find((error: { field: string }) => error.field === field)?.error;
    };
    expect(await fieldError({ amount: 0.001 }, 'amount')).toBe('error.validation.max.decimal.places');
    expect(await fieldError({ amount: 100000 }, 'amount')).toBe('error.validation.max');
    expect(await fieldError({ amount: 0 }, 'amount')).toBe('error.validation.must.be.positive');
    expect(await fieldError({ recipient: '1234567' }, 'recipient')).toBe('error.validation.invalid.recipient');
    expect(await fieldError({ note: 'hi' }, 'note')).toBe('error.validation.unknown.field');
  });

  it('leaves read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
