import type { DashboardSummary, Plan } from '@kupa/proto';
import { LedgerVerifier } from '../operations/verify';
import { InlineProjectionRegistry } from '../platform/projections';
import { signIn } from '../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../test-support/test-app';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../contexts/identity';
import { DEMO_CATALOGUE } from './demo-catalogue';
import { DemoSeed } from './demo-seed';

const emailOf = (role: string) => DEMO_ACCOUNTS.find((account) => account.role === role)?.email as string;

describe('the embedded demo seed', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // A fresh database with DEMO_DATA on: the start-up seeds, as `npm start` on the embedded database does.
    testApp = await startTestApp({ env: { DEMO_DATA: '1' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const get = async (path: string, role: string) => {
    const token = await signIn(testApp, emailOf(role), DEMO_PASSWORD);
    return testApp.http.get(path).set('Authorization', `Bearer ${token}`);
  };

  it('leaves a ledger that verifies clean, every event written through the commands', async () => {
    const verification = await new LedgerVerifier(
      testApp.dataSource,
      testApp.app.get(InlineProjectionRegistry),
    ).verify();
    expect(verification.differences).toEqual([]);
    expect(verification.ok).toBe(true);
    expect(verification.counts.payments).toBeGreaterThanOrEqual(5);
  });

  it('gives the first client packages for sale, in both languages', async () => {
    const token = await signIn(testApp, emailOf('CLIENT'), DEMO_PASSWORD);
    const page = await testApp.http.post('/api/payment-plans/search').set('Authorization', `Bearer ${token}`).send({});
    const onSale = DEMO_CATALOGUE.filter((plan) => plan.status === 'ACTIVE');
    expect((page.body.content as Plan[]).map((plan) => plan.name).sort()).toEqual(
      onSale.map((plan) => plan.name).sort(),
    );
    expect((page.body.content as Plan[]).every((plan) => plan.nameEn !== '')).toBe(true);
  });

  it('gives the admin a dashboard with figures: deposits, revenue, new and active subscriptions', async () => {
    const response = await get('/api/dashboard', 'ADMIN');
    expect(response.status).toBe(200);
    const dashboard = response.body as DashboardSummary;
    expect(dashboard.deposits.thisMonth).toBeGreaterThan(0);
    expect(dashboard.revenue.thisMonth).toBeGreaterThan(0);
    expect(dashboard.newSubscriptions.thisMonth).toBeGreaterThan(0);
    expect(dashboard.daily.some((day) => day.deposits > 0)).toBe(true);
  });

  it('shows the history: the ambassador bonus, the transfer, the cancelled subscription and the referral', async () => {
    const payments: Array<{ type: string; user_email: string }> = await testApp.dataSource.query(
      `SELECT type, user_email FROM payments ORDER BY payment_id`,
    );
    const types = payments.map((payment) => payment.type);
    expect(types).toEqual(expect.arrayContaining(['DEPOSIT', 'SUBSCRIPTION_PAYMENT']));
    expect(types).toContain('AMBASSADOR_BONUS');
    expect(types).toEqual(expect.arrayContaining(['TRANSFER_OUT', 'TRANSFER_IN']));
    const cancelled: unknown[] = await testApp.dataSource.query(
      `SELECT 1 FROM subscriptions WHERE cancel_at_period_end`,
    );
    expect(cancelled).toHaveLength(1);
    const ambassador = await get('/api/users/me', 'AMBASSADOR');
    expect(ambassador.body.referrals).toMatchObject({ totalReferrals: 1 });
  });

  it('seeds once: a second start adds no event', async () => {
    const [before] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM events`);
    expect(await testApp.app.get(DemoSeed).seed()).toBeNull();
    const [after] = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM events`);
    expect(after.count).toBe(before.count);
  });
});
