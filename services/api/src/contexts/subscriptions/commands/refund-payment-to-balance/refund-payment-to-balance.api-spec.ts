import { type AuditLog, auditSentence, type Page, type Payment, type Plan } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { eventually } from '../../../../test-support/eventually';
import { adminToken, createActiveUser, type ActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  balanceMinorOf,
  bought,
  createPlan,
  customerWithBalance,
  expectLedgerVerifyOk,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';

describe('POST /payments/{id}/refund-to-balance', () => {
  let testApp: TestApp;
  let plan: Plan;
  let admin: string;

  beforeAll(async () => {
    const clock = new ManualClock(new Date('2026-03-10T10:00:00Z'));
    testApp = await startTestApp({ clock, stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const refund = (token: string, paymentId: number | string, body: object) =>
    testApp.http
      .post(`/api/payments/${paymentId}/refund-to-balance`)
      .set('Authorization', `Bearer ${token}`)
      .send(body);
  const paymentsOf = async (customer: ActiveUser, token = admin): Promise<Payment[]> => {
    const response = await testApp.http
      .post(`/api/payments/search/${customer.userUuid}`)
      .set('Authorization', `Bearer ${token}`)
      .send({});
    return response.body.content as Payment[];
  };
  /** A client who bought the package from a $25 balance, with the subscription ACTIVE and its SUBSCRIPTION_PAYMENT. */
  const boughtAndActive = async () => {
    const customer = await customerWithBalance(testApp, 25);
    const subscription = await activate(testApp, (await bought(testApp, customer, plan.id)).id);
    const charge = (await paymentsOf(customer)).find((payment) => payment.type === 'SUBSCRIPTION_PAYMENT');
    if (!charge) throw new Error('no subscription payment');
    return { customer, subscription, charge };
  };

  it('gives the payment back from revenue to the balance and ends the subscription now, in one append', async () => {
    const { customer, subscription, charge } = await boughtAndActive();
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1500);
    const response = await refund(admin, charge.paymentId, { reason: '  Service outage  ', subscriptionEnding: 'NOW' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      refundedPaymentId: charge.paymentId,
      amount: 10,
      subscriptionId: subscription.id,
      subscriptionEnding: 'NOW',
    });
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(2500);
    expect((await read(testApp, subscription.id)).status).toBe('CANCELED');
    // The provisioning processor follows the subscription's end a little later: the full run once read the jobs first.
    await eventually(
      async () =>
        (
          (await testApp.dataSource.query(
            `SELECT operation FROM provisioning_jobs WHERE subscription_id = $1 ORDER BY seq`,
            [subscription.id],
          )) as Array<{ operation: string }>
        ).map((job) => job.operation),
      (operations) => operations.includes('DISABLE_ACCOUNT'),
      'the ended subscription has a DISABLE_ACCOUNT provisioning job',
    );

    const payments = await paymentsOf(customer);
    const original = payments.find((payment) => payment.paymentId === charge.paymentId);
    const refundPayment = payments.find((payment) => payment.paymentId === response.body.refundPaymentId);
    expect(original).toMatchObject({ status: 'SUCCESS', refundedByPaymentId: response.body.refundPaymentId });
    expect(refundPayment).toMatchObject({
      type: 'REFUND',
      status: 'SUCCESS',
      amount: 10,
      comment: 'Service outage',
      paidFor: { subscriptionId: subscription.id, planName: plan.name },
    });
    const entries = (await testApp.dataSource.query(
      `SELECT account, amount_minor::int AS amount FROM ledger_entries WHERE payment_id = $1 ORDER BY amount_minor`,
      [response.body.refundPaymentId],
    )) as Array<{ account: string; amount: number }>;
    expect(entries).toEqual([
      { account: 'revenue:subscriptions', amount: -1000 },
      { account: `user:${customer.userUuid}`, amount: 1000 },
    ]);

    // The client sees both, without staff's comment.
    const own = await paymentsOf(customer, customer.accessToken);
    const seen = own.find((payment) => payment.paymentId === charge.paymentId);
    expect(seen?.refundedByPaymentId).toBe(response.body.refundPaymentId);
    expect(own.find((payment) => payment.paymentId === response.body.refundPaymentId)).not.toHaveProperty('comment');

    const audit = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [String(charge.paymentId)] });
    const sentences = (audit.body as Page<AuditLog>).content.map((entry) =>
      auditSentence(entry, 'en').replace(/[\u2066-\u2069]/g, ''),
    );
    expect(sentences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`\\$10\\.00 refunded to the balance as payment #${response.body.refundPaymentId}.*Service outage`),
        ),
      ]),
    );
  });

  it('keeps the subscription to its end when staff say so', async () => {
    const { customer, subscription, charge } = await boughtAndActive();
    const response = await refund(admin, charge.paymentId, { reason: 'goodwill', subscriptionEnding: 'AT_PERIOD_END' });
    expect(response.status).toBe(200);
    const after = await read(testApp, subscription.id);
    expect([after.status, after.endDate]).toEqual(['ACTIVE', subscription.endDate]);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(2500);
  });

  it('refunds a payment once: a second refund, or two at once, give the money back once', async () => {
    const { customer, charge } = await boughtAndActive();
    const body = { reason: 'twice', subscriptionEnding: 'AT_PERIOD_END' };
    const [first, second] = await Promise.all([
      refund(admin, charge.paymentId, body),
      refund(admin, charge.paymentId, body),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect([first, second].find((answer) => answer.status === 409)?.body.error).toBe('error.payment.already.refunded');
    const again = await refund(admin, charge.paymentId, body);
    expect([again.status, again.body.error]).toEqual([409, 'error.payment.already.refunded']);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(2500);
    expect((await paymentsOf(customer)).filter((payment) => payment.type === 'REFUND')).toHaveLength(1);
  });

  it('refuses a payment that is not a subscription payment (409), an unknown one (404), bad bodies (400)', async () => {
    const { customer, charge } = await boughtAndActive();
    const deposit = (await paymentsOf(customer)).find((payment) => payment.type === 'DEPOSIT');
    const notRefundable = await refund(admin, deposit!.paymentId, { reason: 'x', subscriptionEnding: 'NOW' });
    expect([notRefundable.status, notRefundable.body.error]).toEqual([409, 'error.payment.not.refundable']);
    const missing = await refund(admin, 987654321, { reason: 'x', subscriptionEnding: 'NOW' });
    expect([missing.status, missing.body.error]).toEqual([404, 'error.payment.not.found']);
    for (const body of [
      { reason: '   ', subscriptionEnding: 'NOW' },
      { reason: 'x', subscriptionEnding: 'LATER' },
      {},
    ]) {
      expect((await refund(admin, charge.paymentId, body)).status).toBe(400);
    }
    const done = await refund(admin, charge.paymentId, { reason: 'ok', subscriptionEnding: 'NOW' });
    const theRefund = await refund(admin, done.body.refundPaymentId, { reason: 'x', subscriptionEnding: 'NOW' });
    expect([theRefund.status, theRefund.body.error]).toEqual([409, 'error.payment.not.refundable']);
  });

  it('is for admins only: a manager and the client are refused', async () => {
    const { customer, charge } = await boughtAndActive();
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const body = { reason: 'x', subscriptionEnding: 'NOW' };
    expect((await refund(manager.accessToken, charge.paymentId, body)).status).toBe(403);
    expect((await refund(customer.accessToken, charge.paymentId, body)).status).toBe(403);
    expect(await balanceMinorOf(testApp, customer.userUuid)).toBe(1500);
  });

  it('leaves the ledger verifiable and the read models equal to a replay', async () => {
    await expectLedgerVerifyOk(testApp);
    await expectReadModelsToEqualReplay(testApp);
  });
});
