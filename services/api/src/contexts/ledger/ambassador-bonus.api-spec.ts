import { type AuditLog, auditSentence, type Page, type Payment } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { balanceMinorOf, expectReadModelsToEqualReplay } from './ledger.fixtures';
import { expectLedgerVerifyOk } from '../../test-support/ledger-verification';

/**
 * The ambassador bonus end to end (docs/product.md, Referrals and bonuses): booked with an ambassador's real-money
 * deposit in the same append, never for a client, a correction or a withdrawal, and following the deposit when staff
 * change its status.
 */
describe('ambassador bonus on deposits', () => {
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const deposit = (userUuid: string, amount: number, overrides: Record<string, unknown> = {}) =>
    testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid, amount, action: 'DEPOSIT', comment: 'Wire 8812', ...overrides });
  const paymentsOf = async (user: ActiveUser): Promise<Payment[]> => {
    const response = await testApp.http
      .post('/api/payments/search')
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({ sorts: [{ id: 'paymentId', desc: false }] });
    expect(response.status).toBe(200);
    return (response.body as Page<Payment>).content;
  };
  const changeStatus = (paymentId: number, body: Record<string, unknown>) =>
    testApp.http.put(`/api/payments/${paymentId}/status`).set('Authorization', `Bearer ${admin}`).send(body);
  const verify = async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  };

  it("books an ambassador's deposit and its bonus as two payments in one go, the bonus from expense:bonus", async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const response = await deposit(ambassador.userUuid, 200);
    expect(response.status).toBe(201);
    const depositPayment = response.body as Payment;
    expect(depositPayment).toMatchObject({ type: 'DEPOSIT', amount: 200, bonusForPaymentId: null });
    expect(depositPayment.bonusPaymentId).toEqual(expect.any(Number));

    const [listedDeposit, bonus, ...rest] = await paymentsOf(ambassador);
    expect(rest).toEqual([]);
    expect(listedDeposit).toMatchObject({ paymentId: depositPayment.paymentId, bonusPaymentId: bonus.paymentId });
    expect(bonus).toMatchObject({
      type: 'AMBASSADOR_BONUS',
      status: 'SUCCESS',
      aggregator: 'INTERNAL',
      method: 'BALANCE',
      amount: 20,
      bonusPaymentId: null,
      bonusForPaymentId: depositPayment.paymentId,
      createdBy: 'Kupa',
    });
    expect(bonus).not.toHaveProperty('comment');
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(22_000);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${ambassador.accessToken}`);
    expect(me.body.balance).toBe(220);

    const entries: Array<{ account: string; amount_minor: string }> = await testApp.dataSource.query(
      'SELECT account, amount_minor FROM ledger_entries WHERE payment_id = $1 ORDER BY entry_id',
      [bonus.paymentId],
    );
    expect(entries).toEqual([
      { account: 'expense:bonus', amount_minor: '-2000' },
      { account: `user:${ambassador.userUuid}`, amount_minor: '2000' },
    ]);
    const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query(
      `SELECT count(DISTINCT transaction_id)::text AS count FROM events
         WHERE stream_id IN ($1, $2, $3)`,
      [`wallet-${ambassador.userUuid}`, `payment-${depositPayment.paymentId}`, `payment-${bonus.paymentId}`],
    );
    expect(count).toBe('1');

    const audit = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [String(bonus.paymentId)] });
    const [entry] = (audit.body as Page<AuditLog>).content;
    expect(entry.changes).toContainEqual({
      field: 'bonusForPaymentId',
      oldValue: null,
      newValue: `#${depositPayment.paymentId}`,
    });
    expect(auditSentence(entry, 'en').replace(/[\u2066-\u2069]/g, '')).toContain(
      ': Ambassador bonus of $20.00, status Success',
    );
    await verify();
  });

  it('gives a client, a balance correction, a withdrawal and a deposit below 50.00 no bonus payment', async () => {
    const client = await createActiveUser(testApp);
    expect((await deposit(client.userUuid, 2_500)).body).toMatchObject({ bonusPaymentId: null });
    expect((await paymentsOf(client)).map((payment) => payment.type)).toEqual(['DEPOSIT']);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(250_000);

    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    expect((await deposit(ambassador.userUuid, 1_000, { correction: true })).status).toBe(201);
    expect((await deposit(ambassador.userUuid, 49.99)).status).toBe(201);
    expect((await deposit(ambassador.userUuid, 500, { action: 'WITHDRAW' })).status).toBe(201);
    const payments = await paymentsOf(ambassador);
    expect(payments.map((payment) => payment.type)).toEqual(['DEPOSIT', 'DEPOSIT', 'WITHDRAW']);
    expect(payments.every((payment) => payment.bonusPaymentId === null)).toBe(true);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(100_000 + 4_999 - 50_000);
    await verify();
  });

  it('takes the bonus back with a rejected deposit and brings it back when the deposit succeeds again', async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const depositPayment = (await deposit(ambassador.userUuid, 1_000)).body as Payment;
    const bonusPaymentId = depositPayment.bonusPaymentId as number;
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(120_000);

    const bonusDirectly = await changeStatus(bonusPaymentId, { status: 'REJECTED' });
    expect(bonusDirectly.status).toBe(409);
    expect(bonusDirectly.body.error).toBe('error.payment.status.manual.only');

    expect((await changeStatus(depositPayment.paymentId, { status: 'REJECTED' })).status).toBe(200);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(0);
    expect((await paymentsOf(ambassador)).map((payment) => [payment.type, payment.status])).toEqual([
      ['DEPOSIT', 'REJECTED'],
      ['AMBASSADOR_BONUS', 'REJECTED'],
    ]);

    expect((await changeStatus(depositPayment.paymentId, { status: 'SUCCESS' })).status).toBe(200);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(120_000);
    expect((await paymentsOf(ambassador)).map((payment) => payment.status)).toEqual(['SUCCESS', 'SUCCESS']);
    await verify();
  });

  it('asks staff to confirm a negative balance counting the bonus, and books nothing until they do', async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const depositPayment = (await deposit(ambassador.userUuid, 100)).body as Payment;
    expect((await deposit(ambassador.userUuid, 100, { action: 'WITHDRAW' })).status).toBe(201);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(500);

    const refused = await changeStatus(depositPayment.paymentId, { status: 'REJECTED' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'error.balance.negative.confirmation.required',
      details: { resultingBalance: -100 },
    });
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(500);
    expect((await paymentsOf(ambassador)).map((payment) => payment.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);

    const confirmed = await changeStatus(depositPayment.paymentId, {
      status: 'REJECTED',
      confirmNegativeBalance: true,
    });
    expect(confirmed.status).toBe(200);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(-10_000);
    await verify();
  });
});

describe('ambassador bonus with configured tiers', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { AMBASSADOR_BONUS_TIERS: '[{"minDepositMinor":1000,"percent":50}]' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('follows AMBASSADOR_BONUS_TIERS rather than the default table', async () => {
    const admin = await adminToken(testApp);
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const response = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: ambassador.userUuid, amount: 10, action: 'DEPOSIT', comment: 'Wire 1' });
    expect(response.status).toBe(201);
    expect(response.body.bonusPaymentId).toEqual(expect.any(Number));
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(1_500);
  });
});
