import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, expectReadModelsToEqualReplay } from '../../ledger.fixtures';

describe('POST /payments (manual deposit, payout and balance fix)', () => {
  let testApp: TestApp;
  let admin: string;
  let client: ActiveUser;
  let manager: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [client, manager] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp, { role: 'MANAGER' })]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const post = (body: unknown, token: string | null = admin, key?: string) => {
    let call = testApp.http.post('/api/payments');
    if (token) call = call.set('Authorization', `Bearer ${token}`);
    if (key !== undefined) call = call.set('Idempotency-Key', key);
    return call.send(body as object);
  };
  const body = (overrides: Record<string, unknown> = {}) => ({
    userUuid: client.userUuid,
    amount: 12.5,
    action: 'DEPOSIT',
    comment: 'Wire 4471',
    ...overrides,
  });

  it('records a manual deposit as a successful MANUAL payment and credits the balance', async () => {
    const before = await balanceMinorOf(testApp, client.userUuid);
    const response = await post(body());
    expect(response.status).toBe(201);
    const payment = response.body as Payment;
    expect(payment).toMatchObject({
      userUuid: client.userUuid,
      userEmail: client.email,
      amount: 12.5,
      currency: 'USD',
      status: 'SUCCESS',
      method: 'MANUAL_TRANSFER',
      type: 'DEPOSIT',
      aggregator: 'MANUAL',
      comment: 'Wire 4471',
      transferId: null,
    });
    expect(Number.isInteger(payment.paymentId) && payment.paymentId > 0).toBe(true);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(before + 1250);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${client.accessToken}`);
    expect(me.body.balance).toBe((before + 1250) / 100);
    const fetched = await testApp.http
      .get(`/api/payments/${payment.paymentId}`)
      .set('Authorization', `Bearer ${admin}`);
    expect(fetched.body).toEqual(payment);
    const entries: Array<{ account: string; amount_minor: string; balance_after_minor: string | null }> =
      await testApp.dataSource.query(
        'SELECT account, amount_minor, balance_after_minor FROM ledger_entries WHERE payment_id = $1 ORDER BY entry_id',
        [payment.paymentId],
      );
    expect(entries).toEqual([
      { account: 'world:manual', amount_minor: '-1250', balance_after_minor: null },
      { account: `user:${client.userUuid}`, amount_minor: '1250', balance_after_minor: String(before + 1250) },
    ]);
  });

  it('books corrections against expense:adjustment and refuses payouts beyond the balance', async () => {
    const user = await createActiveUser(testApp);
    expect((await post(body({ userUuid: user.userUuid, amount: 20, correction: true }))).status).toBe(201);
    const tooMuch = await post(body({ userUuid: user.userUuid, amount: 20.01, action: 'WITHDRAW' }));
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toBe('error.withdrawal.exceeds.balance');
    const payout = await post(body({ userUuid: user.userUuid, amount: 15, action: 'WITHDRAW' }));
    expect(payout.status).toBe(201);
    expect(payout.body).toMatchObject({ type: 'WITHDRAW', amount: 15, status: 'SUCCESS' });
    const fix = await post(body({ userUuid: user.userUuid, amount: 5, action: 'WITHDRAW', correction: true }));
    expect(fix.status).toBe(201);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    const accounts: Array<{ account: string; total: string }> = await testApp.dataSource.query(
      `SELECT account, sum(amount_minor)::text AS total FROM ledger_entries
        WHERE payment_id IN (SELECT payment_id FROM payments WHERE user_uuid = $1) GROUP BY account ORDER BY account`,
      [user.userUuid],
    );
    expect(accounts).toEqual([
      { account: 'expense:adjustment', total: '-1500' },
      { account: `user:${user.userUuid}`, total: '0' },
      { account: 'world:manual', total: '1500' },
    ]);
  });

  it('answers a repeated Idempotency-Key with the first response and moves money once', async () => {
    const user = await createActiveUser(testApp);
    const key = randomUUID();
    const first = await post(body({ userUuid: user.userUuid, amount: 7 }), admin, key);
    const again = await post(body({ userUuid: user.userUuid, amount: 7 }), admin, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, () => post(body({ userUuid: user.userUuid, amount: 3 }), admin, 'same-key-8')),
    );
    expect(concurrent.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(new Set(concurrent.map((response) => response.body.paymentId)).size).toBe(1);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(1000);
    const reused = await post(body({ userUuid: user.userUuid, amount: 8 }), admin, key);
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe('error.idempotency.key.reused');
    expect((await post(body(), admin, 'k'.repeat(256))).status).toBe(400);
  });

  it('lets exactly K of 50 parallel payouts and transfers through when the balance covers K', async () => {
    const [payer, payee] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    const coveredDebits = 19;
    expect((await post(body({ userUuid: payer.userUuid, amount: coveredDebits * 2 }))).status).toBe(201);
    // Staff payouts and the client's own transfers race for one balance; every debit is 2.00.
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? post(body({ userUuid: payer.userUuid, amount: 2, action: 'WITHDRAW', comment: `Payout ${index}` }))
          : testApp.http
              .post('/api/payments/transfer')
              .set('Authorization', `Bearer ${payer.accessToken}`)
              .send({ recipient: payee.email, amount: 2 }),
      ),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(coveredDebits);
    const refusals = new Set(
      responses
        .filter((response) => response.status !== 201)
        .map((response) => `${response.status} ${response.body.error}`),
    );
    expect(
      [...refusals].every((refusal) =>
        ['409 error.withdrawal.exceeds.balance', '409 error.insufficient.balance'].includes(refusal),
      ),
    ).toBe(true);
    expect(await balanceMinorOf(testApp, payer.userUuid)).toBe(0);
    const transfersIn = responses.filter((response, index) => index % 2 === 1 && response.status === 201).length;
    expect(await balanceMinorOf(testApp, payee.userUuid)).toBe(transfersIn * 200);
    await expectReadModelsToEqualReplay(testApp);
  });

  it('does not remember a refusal against its key', async () => {
    const user = await createActiveUser(testApp);
    const key = randomUUID();
    const refused = await post(body({ userUuid: user.userUuid, amount: 1, action: 'WITHDRAW' }), admin, key);
    expect(refused.body.error).toBe('error.withdrawal.exceeds.balance');
    await post(body({ userUuid: user.userUuid, amount: 1 }));
    const retried = await post(body({ userUuid: user.userUuid, amount: 1, action: 'WITHDRAW' }), admin, key);
    expect(retried.status).toBe(201);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
  });

  it('is for admins only', async () => {
    expect((await post(body(), null)).status).toBe(401);
    expect((await post(body(), client.accessToken)).status).toBe(403);
    expect((await post(body(), manager.accessToken)).status).toBe(403);
  });

  it('refuses bad input with catalogue codes, never a 500', async () => {
    const fieldError = async (overrides: Record<string, unknown>, field: string) => {
      const response = await post(body(overrides));
      expect(response.status).toBe(400);
      return response.body.details.fields.find((error: { field: string }) => error.field === field)?.error;
    };
    expect(await fieldError({ amount: 1.005 }, 'amount')).toBe('error.validation.max.decimal.places');
    expect(await fieldError({ amount: 100000 }, 'amount')).toBe('error.validation.max');
    expect(await fieldError({ amount: -1 }, 'amount')).toBe('error.validation.must.be.positive');
    expect(await fieldError({ amount: '12' }, 'amount')).toBe('error.validation.invalid.input');
    expect(await fieldError({ action: 'STEAL' }, 'action')).toBe('error.validation.invalid.field');
    expect(await fieldError({ comment: 'x'.repeat(256) }, 'comment')).toBe('error.validation.max.length');
    expect(await fieldError({ comment: '  ' }, 'comment')).toBe('error.validation.required');
    expect(await fieldError({ userUuid: 'nope' }, 'userUuid')).toBe('error.validation.invalid.format');
    expect(await fieldError({ bonus: true }, 'bonus')).toBe('error.validation.unknown.field');
    const missing = await post(body({ userUuid: randomUUID() }));
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('error.user.not.found');
  });

  it('leaves read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
