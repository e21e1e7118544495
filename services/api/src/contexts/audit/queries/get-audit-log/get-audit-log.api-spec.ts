import type { AuditLog, Page } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('one activity-log entry', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
    client = await createActiveUser(testApp, { firstName: 'Avi', lastName: 'Adler' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const get = (token: string, id: string) =>
    testApp.http.get(`/api/audit-logs/${id}`).set('Authorization', `Bearer ${token}`);

  it('answers the entry the search lists, with its field-level changes', async () => {
    const searched = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [client.userUuid], operationTypes: ['CREATED'] });
    const [registration] = (searched.body as Page<AuditLog>).content;
    expect(registration).toMatchObject({
      target: { type: 'CLIENT', id: client.userUuid, name: 'Avi Adler', email: client.email },
      parent: null,
      createdBy: { id: 'USER-00000000-0000-0000-0000-000000000000', name: 'SYSTEM' },
      eventType: 'UserRegistered',
    });
    expect(registration.changes).toContainEqual({ field: 'firstName', oldValue: null, newValue: 'Avi' });

    for (const token of [admin, manager.accessToken]) {
      const opened = await get(token, registration.id);
      expect(opened.status).toBe(200);
      expect(opened.body).toEqual(registration);
    }
  });

  it('names the person an entry is about as they are named now, not as they were named then', async () => {
    const renamed = await testApp.http
      .put(`/api/users/${client.userUuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ firstName: 'Avraham', lastName: 'Adler' });
    expect(renamed.status).toBe(200);
    const searched = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [client.userUuid], operationTypes: ['CREATED'] });
    const [registration] = (searched.body as Page<AuditLog>).content;
    const opened = await get(admin, registration.id);
    expect(opened.body.target).toEqual({
      type: 'CLIENT',
      id: client.userUuid,
      name: 'Avraham Adler',
      email: client.email,
    });
    // The entry still records the name the account was opened with.
    expect(opened.body.changes).toContainEqual({ field: 'firstName', oldValue: null, newValue: 'Avi' });
  });

  const entriesAbout = async (id: string): Promise<AuditLog[]> => {
    const searched = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [id], sorts: [{ id: 'createdAt', desc: false }] });
    expect(searched.status).toBe(200);
    return (searched.body as Page<AuditLog>).content;
  };

  const packageTerms = (name: string) => ({
    name,
    durationInMonths: 1,
    price: 10,
    currency: 'USD',
    isRecurrent: true,
    description: 'Every channel',
    features: ['HD'],
    status: 'ACTIVE',
  });

  const createPackage = async (name: string): Promise<string> => {
    const created = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send(packageTerms(name));
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  const renamePackage = async (planId: string, name: string): Promise<void> => {
    const renamed = await testApp.http
      .put(`/api/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${admin}`)
      .send(packageTerms(name));
    expect(renamed.status).toBe(200);
  };

  it('names a package by its name now, and a deleted one by the last name its entries recorded', async () => {
    const suffix = randomUUID().slice(0, 8);
    const planId = await createPackage(`Silver ${suffix}`);
    const live = await entriesAbout(planId);
    expect(live[0].target).toEqual({ type: 'PACKAGE', id: planId, name: `Silver ${suffix}`, email: null });

    await renamePackage(planId, `Platinum ${suffix}`);
    const deleted = await testApp.http.delete(`/api/payment-plans/${planId}`).set('Authorization', `Bearer ${admin}`);
    expect(deleted.status).toBe(204);

    const entries = await entriesAbout(planId);
    expect(entries.map((entry) => entry.operationType)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    for (const entry of entries) {
      expect(entry.target).toEqual({
        type: 'PACKAGE',
        id: planId,
        name: `Platinum ${suffix}`,
        email: null,
        nameRecorded: true,
      });
      expect((await get(admin, entry.id)).body.target).toEqual(entry.target);
    }
  });

  it('names a subscription by its package as bought, whatever the package is called later', async () => {
    const suffix = randomUUID().slice(0, 8);
    const planId = await createPackage(`Bronze ${suffix}`);
    const deposit = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: client.userUuid, amount: 50, action: 'DEPOSIT', comment: 'for a package' });
    expect(deposit.status).toBe(201);
    const purchase = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ login: `tv.${suffix}`, password: 'pass-1234' });
    expect(purchase.status).toBe(201);
    const subscriptionId = purchase.body.id as string;
    await renamePackage(planId, `Copper ${suffix}`);

    const [bought] = await entriesAbout(subscriptionId);
    expect(bought.target).toEqual({
      type: 'SUBSCRIPTION',
      id: subscriptionId,
      name: `Bronze ${suffix}`,
      email: null,
      nameRecorded: true,
    });
    expect(bought.parent).toMatchObject({ type: 'CLIENT', id: client.userUuid });
  });

  it('names a trial subscription, which no package names, by its kind of subscription', async () => {
    const trialist = await createActiveUser(testApp, { firstName: 'Tali', lastName: 'Tamir' });
    const taken = await testApp.http
      .post(`/api/subscriptions/users/${trialist.userUuid}/trial`)
      .set('Authorization', `Bearer ${trialist.accessToken}`)
      .send({ login: `trial.${randomUUID().slice(0, 8)}`, password: 'pass-1234' });
    expect(taken.status).toBe(201);
    const subscriptionId = taken.body.id as string;

    const [purchased] = await entriesAbout(subscriptionId);
    expect(purchased.target).toEqual({
      type: 'SUBSCRIPTION',
      id: subscriptionId,
      name: 'TRIAL_FOR_NEW_USERS',
      email: null,
      nameRecorded: true,
      nameEnum: 'subscriptionType',
    });
    expect((await get(admin, purchased.id)).body.target).toEqual(purchased.target);
  });

  it('answers 404 error.audit.not.found for a missing or malformed id, never a 500', async () => {
    for (const id of [randomUUID(), 'not-an-id', '00000000-0000-0000-0000-00000000000z', "1' OR '1'='1"]) {
      const response = await get(admin, encodeURIComponent(id));
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('error.audit.not.found');
    }
  });

  it('keeps clients out with 403 and anonymous callers with 401', async () => {
    const forbidden = await get(client.accessToken, randomUUID());
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('error.access.forbidden');
    expect((await testApp.http.get(`/api/audit-logs/${randomUUID()}`)).status).toBe(401);
  });
});
