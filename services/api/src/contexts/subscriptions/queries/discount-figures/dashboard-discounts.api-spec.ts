import type { DashboardSummary, GeneratedVoucherBatch, Plan } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { adminToken } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { activate, bought, buy, createPlan, customerWithBalance, uniqueLogin } from '../../subscriptions.fixtures';

/** The dashboard's voucher liability and the month's discounts, from real purchases, sales and redemptions. */
describe('GET /dashboard: vouchers owed and discounts given', () => {
  const clock = new ManualClock(new Date('2026-03-15T12:00:00Z'));
  let testApp: TestApp;
  let plan: Plan;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({ clock, stoppedLoops: ['provisioning-jobs'] });
    plan = await createPlan(testApp, { price: 10, durationInMonths: 1 });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const summary = async (): Promise<DashboardSummary> => {
    const response = await testApp.http.get('/api/dashboard').set('Authorization', `Bearer ${admin}`);
    expect(response.status).toBe(200);
    return response.body as DashboardSummary;
  };
  const batch = async (count: number, amount: number, funding: 'SOLD' | 'GIVEN_AWAY') => {
    const generated = await testApp.http
      .post('/api/vouchers/batches')
      .set('Authorization', `Bearer ${admin}`)
      .send({ label: `Fair ${funding}`, count, amount });
    expect(generated.status).toBe(201);
    const { batch: made, codes } = generated.body as GeneratedVoucherBatch;
    const funded = await testApp.http
      .post(`/api/vouchers/batches/${made.id}/funding`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ funding, comment: 'at the fair' });
    expect(funded.status).toBe(200);
    return codes;
  };
  const redeem = async (code: string) => {
    const client = await customerWithBalance(testApp, 0);
    const response = await testApp.http
      .post('/api/vouchers/redeem')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ code });
    expect(response.status).toBe(201);
  };

  it('starts at zero', async () => {
    expect(await summary()).toMatchObject({
      voucherLiability: 0,
      discountsThisMonth: { referral: 0, promoCode: 0, voucherGiveaways: 0 },
    });
  });

  it('counts referral and promo code discounts this month and what the vouchers still owe', async () => {
    // A referral discount: one referred user holding an ACTIVE subscription gives the referrer 5% off 10.
    const referrer = await customerWithBalance(testApp, 100);
    const referred = await customerWithBalance(testApp, 10, { referralToken: referrer.user.profileId });
    await activate(testApp, (await bought(testApp, referred, plan.id)).id);
    expect((await bought(testApp, referrer, plan.id)).price).toBe(9.5);
    // A promo code: 25% off 10.
    const code = `DASH${Date.now().toString(36)}`.toUpperCase();
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
    // Vouchers: two of 25 sold, three of 5 given away; one of each redeemed.
    const sold = await batch(2, 25, 'SOLD');
    const given = await batch(3, 5, 'GIVEN_AWAY');
    await redeem(sold[0]);
    await redeem(given[0]);

    expect(await summary()).toMatchObject({
      // 25 + 2 × 5 still owed.
      voucherLiability: 35,
      discountsThisMonth: { referral: 0.5, promoCode: 2.5, voucherGiveaways: 15 },
    });
    const liability: Array<{ total: string }> = await testApp.dataSource.query(
      `SELECT sum(amount_minor)::text AS total FROM ledger_entries WHERE account = 'liability:vouchers'`,
    );
    expect(Number(liability[0].total)).toBe(3500);
  });

  it('starts the next month at zero discounts while the vouchers are still owed', async () => {
    clock.set(new Date('2026-04-02T12:00:00Z'));
    expect(await summary()).toMatchObject({
      voucherLiability: 35,
      discountsThisMonth: { referral: 0, promoCode: 0, voucherGiveaways: 0 },
    });
  });
});
