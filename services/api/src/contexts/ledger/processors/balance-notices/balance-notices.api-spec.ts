import type { ClientNotification, NotificationKind, NotificationPage, Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { depositAs } from '../../ledger.fixtures';
import { BALANCE_NOTICES_PROCESSOR } from './balance-notices.processor';
import { RECEIPTS_PROCESSOR } from '../receipts/receipts.processor';

describe('notices of deposits, transfers and a low balance (ADR 0105)', () => {
  let testApp: TestApp;
  let admin: string;
  let planId: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Notices ${randomUUID().slice(0, 4)}`,
        durationInMonths: 1,
        price: 3,
        currency: 'USD',
        isRecurrent: false,
        description: 'A small package',
        features: ['HD'],
        status: 'ACTIVE',
      })
      .expect(201);
    planId = plan.body.id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Both processors past every event stored so far: what they were going to write is written. */
  const caughtUp = async () => {
    const [{ head }]: Array<{ head: string }> = await testApp.dataSource.query(
      'SELECT coalesce(max(commit_position), 0)::text AS head FROM event_commits',
    );
    await eventually(
      async () =>
        (await testApp.dataSource.query(`SELECT commit_position::text AS at FROM checkpoints WHERE name = ANY($1)`, [
          [BALANCE_NOTICES_PROCESSOR, RECEIPTS_PROCESSOR],
        ])) as Array<{ at: string }>,
      (rows) => rows.length === 2 && rows.every((row) => BigInt(row.at) >= BigInt(head)),
      'the notice processors caught up',
    );
  };
  const noticesOf = async (user: ActiveUser, kind: NotificationKind): Promise<ClientNotification[]> => {
    const response = await testApp.http
      .post('/api/notifications/search')
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({ page: 0, size: 50 })
      .expect(200);
    return (response.body as NotificationPage).content.filter((row) => row.kind === kind);
  };
  const mailsOf = async (user: ActiveUser, kind: string) =>
    (await testApp.dataSource.query('SELECT dedupe_key, payload FROM mail_outbox WHERE recipient = $1 AND kind = $2', [
      user.email,
      kind,
    ])) as Array<{ dedupe_key: string; payload: Record<string, unknown> }>;
  const prefer = (user: ActiveUser, body: object) =>
    testApp.http
      .put('/api/users/me/notification-preferences')
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send(body)
      .expect(200);
  const buy = (user: ActiveUser) =>
    testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({ login: `tv.${randomUUID().slice(0, 8)}`, password: 'pass-1234' })
      .expect(201);

  it('tells a deposit in the portal beside its receipt mail; with payments off, neither', async () => {
    const [noa, ben] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    await prefer(ben, { channels: { payments: [] } });
    const deposit = await depositAs(testApp, noa.userUuid, 25);
    await depositAs(testApp, ben.userUuid, 25);
    await caughtUp();

    const [notice] = await noticesOf(noa, 'deposit-credited');
    expect(await noticesOf(noa, 'deposit-credited')).toHaveLength(1);
    expect(notice.params).toEqual({
      amountMinor: 2500,
      method: 'MANUAL_TRANSFER',
      paymentId: deposit.paymentId,
      link: `/payments/${deposit.paymentId}`,
    });
    const receipts = await mailsOf(noa, 'ledger.receipt');
    expect(receipts).toHaveLength(1);
    // Staff see the notice with its mail's state: the two share the receipt's key.
    const staffView = await testApp.http
      .post(`/api/users/${noa.userUuid}/notifications/search`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ page: 0, size: 20 });
    expect(staffView.status).toBe(200);
    expect(staffView.body.content[0]).toMatchObject({ kind: 'deposit-credited', mailState: expect.any(String) });

    expect(await noticesOf(ben, 'deposit-credited')).toHaveLength(0);
    expect(await mailsOf(ben, 'ledger.receipt')).toHaveLength(0);
  });

  it('tells the receiver of a transfer who sent how much, by name and profile ID, never the e-mail', async () => {
    const [dana, omer] = await Promise.all([
      createActiveUser(testApp, { firstName: 'Dana', lastName: 'Cohen' }),
      createActiveUser(testApp, { language: 'he' }),
    ]);
    await depositAs(testApp, dana.userUuid, 20);
    const sent = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${dana.accessToken}`)
      .send({ recipient: omer.user.profileId, amount: 7.5 })
      .expect(201);
    await caughtUp();

    const [incoming]: Array<{ payment_id: string }> = await testApp.dataSource.query(
      `SELECT payment_id::text FROM payments WHERE transfer_id = $1 AND type = 'TRANSFER_IN'`,
      [(sent.body as Payment).transferId],
    );
    const notices = await noticesOf(omer, 'transfer-received');
    expect(notices).toHaveLength(1);
    expect(notices[0].params).toEqual({
      amountMinor: 750,
      paymentId: Number(incoming.payment_id),
      senderName: 'Dana Cohen',
      senderProfileId: dana.user.profileId,
      link: `/payments/${incoming.payment_id}`,
    });
    const [mail] = await mailsOf(omer, 'ledger.transfer-received');
    expect(mail.payload).toMatchObject({ amountMinor: 750, senderName: 'Dana Cohen' });
    expect(JSON.stringify(notices) + JSON.stringify(mail)).not.toContain(dana.email);
    // The sender is told nothing by this processor: their own transfer is on their screen.
    expect(await noticesOf(dana, 'transfer-received')).toHaveLength(0);

    const delivered = await testApp.mailbox.waitFor(omer.email, (message) => message.text.includes('Dana Cohen'));
    expect(delivered.text).toContain(`http://kupa.test/payments/${incoming.payment_id}`);
    expect(delivered.text).toContain('העביר/ה ליתרה שלך');
  });

  it('tells a balance that fell under the threshold once per crossing, and a replayed batch writes nothing twice', async () => {
    const maya = await createActiveUser(testApp);
    await prefer(maya, { lowBalanceThresholdMinor: 800 });
    await depositAs(testApp, maya.userUuid, 10); // $10: above $8, nothing
    await buy(maya); // $7: crossed
    await caughtUp();
    const first = await noticesOf(maya, 'low-balance');
    expect(first).toHaveLength(1);
    expect(first[0].params).toEqual({
      balanceMinor: 700,
      thresholdMinor: 800,
      link: '/payments/deposit?amountMinor=100',
    });

    await buy(maya); // $4: still under, nothing new
    await caughtUp();
    expect(await noticesOf(maya, 'low-balance')).toHaveLength(1);

    await depositAs(testApp, maya.userUuid, 5); // $9: back above
    await buy(maya); // $6: crossed again
    await caughtUp();
    const second = await noticesOf(maya, 'low-balance');
    expect(second).toHaveLength(2);
    expect(second[0].params).toMatchObject({ balanceMinor: 600, thresholdMinor: 800 });
    expect(await mailsOf(maya, 'ledger.low-balance')).toHaveLength(2);

    // The processor handles the whole store again, as after a crash between its writes and its checkpoint: nothing new.
    await testApp.dataSource.query(`UPDATE checkpoints SET commit_position = 0 WHERE name = $1`, [
      BALANCE_NOTICES_PROCESSOR,
    ]);
    await caughtUp();
    expect(await noticesOf(maya, 'low-balance')).toHaveLength(2);
    expect(await mailsOf(maya, 'ledger.low-balance')).toHaveLength(2);
    const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query(
      `SELECT count(*)::text AS count FROM client_notifications WHERE kind = 'transfer-received'`,
    );
    expect(Number(count)).toBe(1);
  });

  it('says nothing of a low balance to someone without a threshold, nor by mail when only the portal is chosen', async () => {
    const [lior, gal] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    await prefer(gal, { lowBalanceThresholdMinor: 800, channels: { 'low-balance': ['portal'] } });
    await Promise.all([depositAs(testApp, lior.userUuid, 10), depositAs(testApp, gal.userUuid, 10)]);
    await Promise.all([buy(lior), buy(gal)]);
    await caughtUp();
    expect(await noticesOf(lior, 'low-balance')).toHaveLength(0);
    expect(await noticesOf(gal, 'low-balance')).toHaveLength(1);
    expect(await mailsOf(gal, 'ledger.low-balance')).toHaveLength(0);
  });
});
