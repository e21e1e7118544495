import type { Page, Plan } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { createPlan } from '../../catalog.fixtures';

describe('POST /payment-plans/search', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;
  let cheap: Plan;
  let middle: Plan;
  let dear: Plan;
  let hidden: Plan;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [manager, client] = await Promise.all([createActiveUser(testApp, { role: 'MANAGER' }), createActiveUser(testApp)]);
    // Created one after the other, so that "newest first" has one answer.
    cheap = await createPlan(testApp, { name: 'Bronze', price: 5, durationInMonths: 1 });
    middle = await createPlan(testApp, { name: 'silver', price: 19.99, durationInMonths: 3 });
    dear = await createPlan(testApp, { name: 'Gold', price: 99.5, durationInMonths: 12 });
    hidden = await createPlan(testApp, { name: 'Archived', price: 19.99, durationInMonths: 2, status: 'INACTIVE' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (body: unknown, token: string | null = admin) => {
    const call = testApp.http.post('/api/payment-plans/search');
    return (token ? call.set('Authorization', `Bearer ${token}`) : call).send(body as object);
  };
  const names = async (body: unknown, token: string = admin) => {
    const response = await search(body, token);
    expect(response.status).toBe(200);
    return (response.body as Page<Plan>).content.map((plan) => plan.name);
  };

  it('lists every package for staff, newest first, with exact counts', async () => {
    const response = await search({});
    expect(response.body).toEqual({
      // Staff read how many subscriptions use each package (ADR 0078).
      content: [hidden, dear, middle, cheap].map((plan) => ({ ...plan, subscriptionCount: 0 })),
      page: 0,
      size: 20,
      totalElements: 4,
      totalPages: 1,
    });
    expect(await names({}, manager.accessToken)).toEqual(['Archived', 'Gold', 'silver', 'Bronze']);
  });

  it('lists only ACTIVE packages for customers, whatever statuses they ask for', async () => {
    expect(await names({}, client.accessToken)).toEqual(['Gold', 'silver', 'Bronze']);
    expect(await names({ statuses: ['INACTIVE'] }, client.accessToken)).toEqual([]);
    const page = await search({ statuses: ['ACTIVE', 'INACTIVE'] }, client.accessToken);
    expect(page.body.totalElements).toBe(3);
  });

  it('filters by status and by an inclusive price range in dollars', async () => {
    expect(await names({ statuses: ['INACTIVE'] })).toEqual(['Archived']);
    expect(await names({ price: { from: 19.99, to: 99.5 } })).toEqual(['Archived', 'Gold', 'silver']);
    expect(await names({ price: { from: 19.99 } })).toEqual(['Archived', 'Gold', 'silver']);
    expect(await names({ price: { to: 5 } })).toEqual(['Bronze']);
    expect(await names({ price: { from: null, to: null } })).toHaveLength(4);
    expect(await names({ price: { from: 0, to: 4.99 } })).toEqual([]);
    expect(await names({ statuses: ['ACTIVE'], price: { from: 19.99, to: 19.99 } })).toEqual(['silver']);
  });

  it('sorts by price, duration, name (without case) and status, ties broken by the default order', async () => {
    expect(await names({ sorts: [{ id: 'price', desc: false }] })).toEqual(['Bronze', 'Archived', 'silver', 'Gold']);
    expect(await names({ sorts: [{ id: 'price', desc: true }] })).toEqual(['Gold', 'Archived', 'silver', 'Bronze']);
    expect(await names({ sorts: [{ id: 'durationInMonths', desc: false }] })).toEqual([
      'Bronze',
      'Archived',
      'silver',
      'Gold',
    ]);
    expect(await names({ sorts: [{ id: 'name', desc: false }] })).toEqual(['Archived', 'Bronze', 'Gold', 'silver']);
    expect(
      await names({
        sorts: [
          { id: 'status', desc: true },
          { id: 'createdAt', desc: false },
        ],
      }),
    ).toEqual(['Archived', 'Bronze', 'silver', 'Gold']);
  });

  it('pages', async () => {
    const second = await search({ page: 1, size: 3 });
    expect(second.body).toMatchObject({ page: 1, size: 3, totalElements: 4, totalPages: 2 });
    expect(second.body.content.map((plan: Plan) => plan.name)).toEqual(['Bronze']);
  });

  it('refuses unknown sorts and filters, and price bounds outside the limits', async () => {
    const sort = await search({ sorts: [{ id: 'features', desc: true }] });
    expect(sort.body.details.fields).toEqual([
      { field: 'sorts', error: 'error.validation.invalid.field', params: { id: 'features' } },
    ]);
    const bounds = await search({ price: { from: -1, to: 1.001 } });
    expect(bounds.body.details.fields).toEqual([
      { field: 'price.from', error: 'error.validation.must.be.positive' },
      { field: 'price.to', error: 'error.validation.max.decimal.places', params: { maxDecimalPlaces: 2 } },
    ]);
    const status = await search({ statuses: ['DRAFT'] });
    expect(status.body.details.fields).toEqual([{ field: 'statuses', error: 'error.validation.invalid.field' }]);
    const unknown = await search({ keyWord: 'gold' });
    expect(unknown.body.details.fields).toEqual([{ field: 'keyWord', error: 'error.validation.unknown.field' }]);
  });

  it('needs a signed-in caller', async () => {
    expect((await search({}, null)).status).toBe(401);
  });
});
