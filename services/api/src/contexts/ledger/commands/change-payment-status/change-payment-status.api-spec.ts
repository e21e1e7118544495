import { LIMITS, type Page, type Payment, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, depositAs, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

describe('PUT /payments/{id}/status and GET /payments/{id}', () => {
  let testApp: TestApp;
  let admin: string;
  let client: ActiveUser;
  let otherClient: ActiveUser;
  let manager: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [client, otherClient, manager] = await Promise.all([
      createActiveUser(testApp),
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const changeStatus = (paymentId: number | string, body: unknown, token: string | null = admin) => {
    const call = testApp.http.put(`/api/payments/${paymentId}/status`);
    return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body as object);
  };
  const get = (paymentId: number | string, token: string | null) => {
    const call = testApp.http.get(`/api/payments/${paymentId}`);
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  };

  it('reverses a deposit when it fails and books it again when it succeeds', async () => {
    const deposit = await depositAs(testApp, client.userUuid, 40);
    const failed = await changeStatus(deposit.paymentId, { status: 'FAILED' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ paymentId: deposit.paymentId, status: 'FAILED', createdAt: deposit.createdAt });
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
    // FAILED → REJECTED keeps the money off the books; the same status again changes nothing.
    expect((await changeStatus(deposit.paymentId, { status: 'REJECTED' })).body.status).toBe('REJECTED');
    const eventsBefore: Array<{ count: string }> = await testApp.dataSource.query('SELECT count(*) FROM events');
    expect((await changeStatus(deposit.paymentId, { status: 'REJECTED' })).status).toBe(200);
    expect(await testApp.dataSource.query('SELECT count(*) FROM events')).toEqual(eventsBefore);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);
    expect((await changeStatus(deposit.paymentId, { status: 'SUCCESS' })).body.status).toBe('SUCCESS');
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(4000);
  });

  it('asks for confirmation before leaving the balance negative, then records who confirmed', async () => {
    const user = await createActiveUser(testApp);
    const deposit = await depositAs(testApp, user.userUuid, 50);
    await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({ recipient: otherClient.email, amount: 30 });
    const refused = await changeStatus(deposit.paymentId, { status: 'FAILED' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'error.balance.negative.confirmation.required',
      details: { resultingBalance: -30 },
    });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(2000);
    const confirmed = await changeStatus(deposit.paymentId, { status: 'FAILED', confirmNegativeBalance: true });
    expect(confirmed.status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(-3000);
    const [reversal]: Array<{ data: { overdraftConfirmedBy: string } }> = await testApp.dataSource.query(
      `SELECT data FROM events WHERE type = 'PaymentReversed' AND (data->>'paymentId')::bigint = $1`,
      [deposit.paymentId],
    );
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${admin}`);
    expect(reversal.data.overdraftConfirmedBy).toBe(me.body.userUuid);
  });

  it('changes the status of manual payments only', async () => {
    const payer = await createActiveUser(testApp);
    await depositAs(testApp, payer.userUuid, 5);
    const sent = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${payer.accessToken}`)
      .send({ recipient: otherClient.email, amount: 5 });
    const refused = await changeStatus((sent.body as Payment).paymentId, { status: 'FAILED' });
    expect([refused.status, refused.body.error]).toEqual([409, 'error.payment.status.manual.only']);
  });

  it('lets admins read any payment, clients their own, and nobody else', async () => {
    const deposit = await depositAs(testApp, client.userUuid, 1);
    expect((await get(deposit.paymentId, admin)).body).toMatchObject({ paymentId: deposit.paymentId, amount: 1 });
    expect((await get(deposit.paymentId, client.accessToken)).status).toBe(200);
    const foreign = await get(deposit.paymentId, otherClient.accessToken);
    expect([foreign.status, foreign.body.error]).toEqual([404, 'error.payment.not.found']);
    expect((await get(deposit.paymentId, manager.accessToken)).status).toBe(403);
    expect((await get(deposit.paymentId, null)).status).toBe(401);
    for (const malformed of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const response = await get(malformed, admin);
      expect([response.status, response.body.error]).toEqual([404, 'error.payment.not.found']);
    }
    expect((await get(987654321, admin)).status).toBe(404);
  });

  it('shows the client Kupa and the public note, never the staff e-mail or the internal comment', async () => {
    const staffEmail = (
      (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${admin}`)).body as {
        email: string;
      }
    ).email;
    const internal = 'Flagged by the risk desk: second wire from abroad';
    const booked = await testApp.http.post('/api/payments').set('Authorization', `Bearer ${admin}`).send({
      userUuid: client.userUuid,
      amount: 20,
      action: 'DEPOSIT',
      comment: internal,
      publicNote: '  Bank transfer received, thank you  ',
    });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      comment: internal,
      publicNote: 'Bank transfer received, thank you',
      createdBy: staffEmail,
    });
    const paymentId = (booked.body as Payment).paymentId;
    const notInYourName = 'The transfer came from an account not in your name';
    const rejected = await changeStatus(paymentId, { status: 'REJECTED', publicNote: notInYourName });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', publicNote: notInYourName, comment: internal });
    expect(rejected.body.updatedBy).toBe(staffEmail);

    const expectClientView = (payment: Payment) => {
      expect(payment).not.toHaveProperty('comment');
      expect(payment).toMatchObject({
        paymentId,
        userEmail: client.email,
        publicNote: notInYourName,
        createdBy: PUBLIC_STAFF_ACTOR_NAME,
        updatedBy: PUBLIC_STAFF_ACTOR_NAME,
      });
      expect(JSON.stringify(payment)).not.toContain(staffEmail);
      expect(JSON.stringify(payment)).not.toContain('risk desk');
    };
    expectClientView((await get(paymentId, client.accessToken)).body as Payment);
    const search = (token: string, body: object, path = '/api/payments/search') =>
      testApp.http.post(path).set('Authorization', `Bearer ${token}`).send(body);
    const listed = (await search(client.accessToken, { size: 100 })).body as Page<Payment>;
    expectClientView(listed.content.find((payment) => payment.paymentId === paymentId) as Payment);

    // Staff read the whole payment, in the list and in the client tab alike.
    const staffRow = (
      (await search(manager.accessToken, {}, `/api/payments/search/${client.userUuid}`)).body as Page<Payment>
    ).content.find((payment) => payment.paymentId === paymentId);
    expect(staffRow).toMatchObject({ comment: internal, createdBy: staffEmail, publicNote: notInYourName });

    // A keyword finds the comment's words for staff only; a client's keyword sees what the client sees.
    const ids = async (token: string, keyWord: string) =>
      ((await search(token, { keyWord })).body as Page<Payment>).content.map((payment) => payment.paymentId);
    expect(await ids(admin, 'risk desk')).toContain(paymentId);
    expect(await ids(client.accessToken, 'risk desk')).toEqual([]);
    expect(await ids(client.accessToken, 'not in your NAME')).toEqual([paymentId]);

    // The events carry the notes; a later change without one keeps the message the client was shown (ADR 0078).
    const restored = await changeStatus(paymentId, { status: 'SUCCESS' });
    expect(restored.body.publicNote).toBe(notInYourName);
    expect((await get(paymentId, client.accessToken)).body.publicNote).toBe(notInYourName);
    const notes: Array<{ type: string; note: string | null }> = await testApp.dataSource.query(
      `SELECT type, data->>'publicNote' AS note FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [`payment-${paymentId}`],
    );
    expect(notes).toEqual([
      { type: 'PaymentRecorded', note: 'Bank transfer received, thank you' },
      { type: 'PaymentStatusChanged', note: notInYourName },
      { type: 'PaymentStatusChanged', note: notInYourName },
    ]);
  });

  it('refuses, never cuts, a public note over the limit, and a blank one', async () => {
    const deposit = await depositAs(testApp, client.userUuid, 1);
    const max = LIMITS.publicNoteMaxLength;
    const tooLong = await changeStatus(deposit.paymentId, { status: 'FAILED', publicNote: 'א'.repeat(max + 1) });
    expect([tooLong.status, tooLong.body.details.fields]).toEqual([
      400,
      [{ field: 'publicNote', error: 'error.validation.max.length', params: { max } }],
    ]);
    const blank = await changeStatus(deposit.paymentId, { status: 'FAILED', publicNote: '   ' });
    expect(blank.body.details.fields).toEqual([{ field: 'publicNote', error: 'error.validation.blank' }]);
    expect((await get(deposit.paymentId, admin)).body.status).toBe('SUCCESS');
    const longest = await changeStatus(deposit.paymentId, { status: 'FAILED', publicNote: '😀'.repeat(max) });
    expect([longest.status, longest.body.publicNote]).toEqual([200, '😀'.repeat(max)]);
  });

  it('is for admins only and refuses bad input', async () => {
    const deposit = await depositAs(testApp, client.userUuid, 1);
    expect((await changeStatus(deposit.paymentId, { status: 'FAILED' }, null)).status).toBe(401);
    expect((await changeStatus(deposit.paymentId, { status: 'FAILED' }, client.accessToken)).status).toBe(403);
    expect((await changeStatus(deposit.paymentId, { status: 'FAILED' }, manager.accessToken)).status).toBe(403);
    const unknownStatus = await changeStatus(deposit.paymentId, { status: 'LOST' });
    expect(unknownStatus.body.details.fields).toContainEqual({
      field: 'status',
      error: 'error.validation.invalid.field',
    });
    expect((await changeStatus(deposit.paymentId, { status: 'FAILED', force: true })).status).toBe(400);
    expect((await changeStatus(deposit.paymentId, { status: 'FAILED', confirmNegativeBalance: 'yes' })).status).toBe(
      400,
    );
    expect((await changeStatus('abc', { status: 'FAILED' })).body.error).toBe('error.payment.not.found');
    expect((await changeStatus(123456789, { status: 'FAILED' })).body.error).toBe('error.payment.not.found');
  });

  it('leaves read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
