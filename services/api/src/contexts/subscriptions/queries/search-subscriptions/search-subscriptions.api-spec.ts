import type { Subscription } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { activate, bought, createPlan, customerWithBalance, search } from '../../subscriptions.fixtures';

describe('POST /subscriptions/search', () => {
  let testApp: TestApp;
  let admin: string;
  let dana: ActiveUser;
  let omer: ActiveUser;
  let monthly: Subscription;
  let quarterly: Subscription;
  let omers: Subscription;
  let trial: Subscription;

  beforeAll(async () => {
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
    admin = await adminToken(testApp);
    const cheap = await createPlan(testApp, { price: 5, durationInMonths: 1 });
    const dear = await createPlan(testApp, { price: 30, durationInMonths: 3, isRecurrent: false });
    [dana, omer] = await Promise.all([customerWithBalance(testApp, 100), customerWithBalance(testApp, 100)]);
    // One after the other, so that "newest first" has one answer.
    monthly = await activate(testApp, (await bought(testApp, dana, cheap.id)).id);
    quarterly = await bought(testApp, dana, dear.id);
    omers = await bought(testApp, omer, cheap.id);
    const taken = await testApp.http
      .post(`/api/subscriptions/users/${omer.userUuid}/trial`)
      .set('Authorization', `Bearer ${omer.accessToken}`)
      .send({ login: `trial.${omer.userUuid.slice(0, 8)}`, password: 'pw12' });
    trial = taken.body as Subscription;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const ids = async (body: object, token = admin) => (await search(testApp, token, body)).content.map((s) => s.id);

  it('lists every subscription for staff, newest first, with counts; clients see only their own', async () => {
    const page = await search(testApp, admin, {});
    expect(page).toMatchObject({ page: 0, size: 20, totalElements: 4, totalPages: 1 });
    expect(page.content.map((s) => s.id)).toEqual([trial.id, omers.id, quarterly.id, monthly.id]);
    expect(await ids({}, dana.accessToken)).toEqual([quarterly.id, monthly.id]);
    // A client asking for another user's subscriptions still gets only their own (none of those).
    expect(await ids({ userUuid: omer.userUuid }, dana.accessToken)).toEqual([]);
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect(await ids({}, manager.accessToken)).toHaveLength(4);
  });

  it('filters by id or part of one, user, duration, type, status, dates and price', async () => {
    expect(await ids({ ids: [monthly.id] })).toEqual([monthly.id]);
    expect(await ids({ ids: [quarterly.id.slice(9, 18)] })).toEqual([quarterly.id]);
    expect(await ids({ userUuid: omer.userUuid })).toEqual([trial.id, omers.id]);
    expect(await ids({ durationsInMonths: [3] })).toEqual([quarterly.id]);
    expect(await ids({ types: ['TRIAL_FOR_NEW_USERS'] })).toEqual([trial.id]);
    expect(await ids({ statuses: ['ACTIVE'] })).toEqual([monthly.id]);
    expect(await ids({ statuses: ['PENDING'], types: ['REGULAR'] })).toEqual([omers.id, quarterly.id]);
    expect(await ids({ price: { from: 5, to: 5 } })).toEqual([omers.id, monthly.id]);
    expect(await ids({ price: { from: 0, to: 0 } })).toEqual([trial.id]);
    expect(await ids({ price: { from: 10 } })).toEqual([quarterly.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids({ startDate: { from: today, to: today } })).toEqual([monthly.id]);
    expect(await ids({ endDate: { from: monthly.endDate } })).toEqual([monthly.id]);
    expect(await ids({ createdAt: { from: quarterly.createdAt, to: omers.createdAt } })).toEqual([
      omers.id,
      quarterly.id,
    ]);
    expect(await ids({ createdAt: { to: '2000-01-01' } })).toEqual([]);
  });

  it('sorts by every sortable column, ties broken by the default order', async () => {
    expect(await ids({ sorts: [{ id: 'price', desc: true }] })).toEqual([quarterly.id, omers.id, monthly.id, trial.id]);
    expect(await ids({ sorts: [{ id: 'createdAt', desc: false }] })).toEqual([
      monthly.id,
      quarterly.id,
      omers.id,
      trial.id,
    ]);
    expect(await ids({ sorts: [{ id: 'durationInMonth', desc: false }] })).toEqual([
      trial.id,
      omers.id,
      monthly.id,
      quarterly.id,
    ]);
    expect(await ids({ sorts: [{ id: 'type', desc: true }] })).toEqual([trial.id, omers.id, quarterly.id, monthly.id]);
    expect((await ids({ sorts: [{ id: 'status', desc: false }] }))[0]).toBe(monthly.id);
    expect((await ids({ sorts: [{ id: 'startDate', desc: false }] }))[0]).toBe(monthly.id);
    expect((await ids({ sorts: [{ id: 'endDate', desc: false }] }))[0]).toBe(monthly.id);
    const byEmail = await search(testApp, admin, { sorts: [{ id: 'userEmail', desc: false }] });
    const emails = byEmail.content.map((s) => s.userEmail.toLowerCase());
    expect(emails).toEqual([...emails].sort());
  });

  it('pages', async () => {
    const second = await search(testApp, admin, { page: 1, size: 3 });
    expect(second).toMatchObject({ page: 1, size: 3, totalElements: 4, totalPages: 2 });
    expect(second.content.map((s) => s.id)).toEqual([monthly.id]);
  });

  it('refuses unknown sorts and filters, and bad values', async () => {
    const call = (body: object) =>
      testApp.http.post('/api/subscriptions/search').set('Authorization', `Bearer ${admin}`).send(body);
    expect((await call({ sorts: [{ id: 'login', desc: true }] })).body.details.fields).toEqual([
      { field: 'sorts', error: 'error.validation.invalid.field', params: { id: 'login' } },
    ]);
    expect((await call({ statuses: ['GONE'] })).status).toBe(400);
    expect((await call({ durationsInMonths: [6] })).status).toBe(400);
    expect((await call({ ids: ['not hex'] })).status).toBe(400);
    expect((await call({ price: { from: -1 } })).status).toBe(400);
    expect((await call({ login: 'x' })).body.details.fields).toEqual([
      { field: 'login', error: 'error.validation.unknown.field' },
    ]);
  });
});
