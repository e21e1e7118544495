import type { DepositClaim, Payment } from '@kupa/proto';
import { eventually } from '../../../../test-support/eventually';
import { FakeTelegram } from '../../../../test-support/fake-telegram';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf } from '../../ledger.fixtures';

const STAFF_CHAT = -100112;

/**
 * Manual-transfer claims (docs/adr/0112-manual-transfer-claims.md) over HTTP: a client claims, the staff chat hears it
 * once, staff settle it with the manual deposit (the balance moves once, by the deposit) or reject it (the client is
 * told); another client's claim is 404; the limits and bad input answer catalogue codes.
 */
describe('manual-transfer claims (ADR 0112)', () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let yossi: ActiveUser;

  const claim = (user: ActiveUser, body: object, key?: string) => {
    const request = testApp.http.post('/api/deposit-claims').set('Authorization', `Bearer ${user.accessToken}`);
    if (key) request.set('Idempotency-Key', key);
    return request.send(body);
  };
  const listAs = (token: string, query = '') =>
    testApp.http.get(`/api/deposit-claims${query}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({
      env: telegram.env({
        WORKER_POLL_INTERVAL_MS: '50',
        TELEGRAM_STAFF_CHAT_ID: String(STAFF_CHAT),
        TELEGRAM_STAFF_CHAT_LANGUAGE: 'en',
      }),
    });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    dana = await createActiveUser(testApp, { firstName: 'Dana', lastName: 'Cohen' });
    yossi = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('records a claim, tells the staff chat once, and settles it with the manual deposit: the balance moves once', async () => {
    const first = await claim(dana, { amount: 250, note: '  Bank Leumi,\n branch 800  ' }, 'claim-dana-1').expect(201);
    const created = first.body as DepositClaim;
    expect(first.headers['cache-control']).toBe('no-store');
    expect(created).toMatchObject({
      amount: 250,
      status: 'OPEN',
      reference: dana.user.profileId,
      note: 'Bank Leumi,\n branch 800',
    });
    // A repeat with the same key answers the same claim and records nothing more.
    const repeat = await claim(dana, { amount: 250, note: '  Bank Leumi,\n branch 800  ' }, 'claim-dana-1').expect(201);
    expect((repeat.body as DepositClaim).claimId).toBe(created.claimId);

    await telegram.waitForMessages(STAFF_CHAT, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const alerts = telegram.messagesTo(STAFF_CHAT).map((message) => message.text);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain('Manual transfer claimed: Dana Cohen');
    expect(alerts[0]).toContain(`(${dana.user.profileId})`);
    expect(alerts[0]).toContain('$250.00');
    expect(alerts[0]).toContain('Note: Bank Leumi, branch 800');
    expect(alerts[0]).not.toContain(dana.email);

    const own = await listAs(dana.accessToken).expect(200);
    expect(own.headers['cache-control']).toBe('no-store');
    expect((own.body as DepositClaim[]).map((c) => c.claimId)).toEqual([created.claimId]);
    const open = await listAs(manager.accessToken, '?status=OPEN').expect(200);
    expect((open.body as DepositClaim[]).find((c) => c.claimId === created.claimId)).toMatchObject({
      clientName: 'Dana Cohen',
    });

    // Settled by the manual deposit, whose amount defaults to the claim's.
    const settled = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: dana.userUuid, action: 'DEPOSIT', comment: 'Leumi transfer seen', claimId: created.claimId })
      .expect(201);
    const payment = settled.body as Payment;
    expect(payment.amount).toBe(250);
    expect(await balanceMinorOf(testApp, dana.userUuid)).toBe(25_000);
    const after = (await listAs(dana.accessToken).expect(200)).body as DepositClaim[];
    expect(after[0]).toMatchObject({ status: 'SETTLED', paymentId: payment.paymentId });

    // A settled claim settles nothing again: the second deposit is refused and the balance stays.
    const again = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: dana.userUuid, action: 'DEPOSIT', comment: 'twice', claimId: created.claimId })
      .expect(409);
    expect(again.body.error).toBe('error.deposit.claim.closed');
    await testApp.http
      .post(`/api/deposit-claims/${created.claimId}/rejection`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ reason: 'late' })
      .expect(409);
    expect(await balanceMinorOf(testApp, dana.userUuid)).toBe(25_000);
  });

  it("rejects with a reason the client is told, and keeps another client's claim out of reach (404)", async () => {
    const created = (await claim(yossi, { amount: 40 }).expect(201)).body as DepositClaim;
    expect((await listAs(dana.accessToken).expect(200)).body.map((c: DepositClaim) => c.claimId)).not.toContain(
      created.claimId,
    );
    // Settling Yossi's claim with a deposit for Dana names no claim of hers.
    const crossed = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: dana.userUuid, amount: 40, action: 'DEPOSIT', comment: 'x', claimId: created.claimId })
      .expect(404);
    expect(crossed.body.error).toBe('error.deposit.claim.not.found');
    await testApp.http
      .post(`/api/deposit-claims/${created.claimId}/rejection`)
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .send({ reason: 'mine now' })
      .expect(403);

    await testApp.http
      .post(`/api/deposit-claims/${created.claimId}/rejection`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ reason: 'No transfer with this reference arrived' })
      .expect(204);
    const mine = (await listAs(yossi.accessToken).expect(200)).body as DepositClaim[];
    expect(mine[0]).toMatchObject({ status: 'REJECTED', reasonText: 'No transfer with this reference arrived' });
    const notices = await eventually(
      () =>
        testApp.dataSource.query(
          `SELECT kind, params FROM client_notifications WHERE user_uuid = $1 AND kind = 'deposit-claim-rejected'`,
          [yossi.userUuid],
        ) as Promise<Array<{ kind: string; params: { reason: string; amountMinor: number } }>>,
      (rows) => rows.length > 0,
      'the rejection notice',
    );
    expect(notices).toHaveLength(1);
    expect(notices[0].params).toMatchObject({ reason: 'No transfer with this reference arrived', amountMinor: 4000 });
    expect(await balanceMinorOf(testApp, yossi.userUuid)).toBe(0);
  });

  it('refuses bad input and a sixth open claim with catalogue codes', async () => {
    const client = await createActiveUser(testApp);
    expect((await claim(client, { amount: 1 }).expect(400)).body.error).toBe('error.deposit.amount.out.of.range');
    expect((await claim(client, { amount: 5000.01 }).expect(400)).body.error).toBe('error.deposit.amount.out.of.range');
    await claim(client, { amount: -3 }).expect(400);
    await claim(client, { amount: 20, extra: true }).expect(400);
    for (let i = 0; i < 5; i += 1) await claim(client, { amount: 20 + i }).expect(201);
    const sixth = await claim(client, { amount: 30 }).expect(409);
    expect(sixth.body.error).toBe('error.deposit.claim.too.many.open');
    await listAs(manager.accessToken, '?status=BOGUS').expect(400);
    await testApp.http
      .post('/api/deposit-claims/not-a-uuid/rejection')
      .set('Authorization', `Bearer ${admin}`)
      .send({ reason: 'x' })
      .expect(404);
    const [open] = (await listAs(client.accessToken).expect(200)).body as DepositClaim[];
    await testApp.http
      .post(`/api/deposit-claims/${open.claimId}/rejection`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ reason: '   ' })
      .expect(400);
    await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: client.userUuid, action: 'WITHDRAW', comment: 'x', claimId: open.claimId })
      .expect(400);
    await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: client.userUuid, action: 'DEPOSIT', comment: 'no amount, no claim' })
      .expect(400);
  });
});
