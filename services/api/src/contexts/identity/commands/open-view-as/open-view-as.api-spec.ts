import { JwtService } from '@nestjs/jwt';
import type { AuditLog, Page } from '@kupa/proto';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('view as the client (ADR 0092)', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER', firstName: 'Maya', lastName: 'Manager' });
    client = await createActiveUser(testApp, { firstName: 'Dana', lastName: 'Cohen' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const open = (token: string, userUuid: string) =>
    testApp.http.post(`/api/users/${userUuid}/view-as`).set('Authorization', `Bearer ${token}`);
  const bearer = (token: string) => `Bearer ${token}`;

  async function viewEntries(userUuid: string): Promise<AuditLog[]> {
    const response = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', bearer(admin))
      .send({ targetAndParentIds: [userUuid], size: 100 });
    expect(response.status).toBe(200);
    return (response.body as Page<AuditLog>).content.filter((entry) => entry.eventType === 'UserViewedByStaff');
  }

  it('lets a manager read the portal as the client, and records the opening and every request', async () => {
    const opened = await open(manager.accessToken, client.userUuid);
    expect(opened.status).toBe(201);
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.headers['set-cookie']).toBeUndefined();
    const token = opened.body.accessToken as string;
    const expiresInMs = Date.parse(opened.body.expiresAt as string) - Date.now();
    expect(expiresInMs).toBeGreaterThan(14 * 60_000);
    expect(expiresInMs).toBeLessThanOrEqual(15 * 60_000);

    const me = await testApp.http.get('/api/users/me').set('Authorization', bearer(token));
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(client.email);
    const payments = await testApp.http.post('/api/payments/search').set('Authorization', bearer(token)).send({});
    expect(payments.status).toBe(200);
    const subscriptions = await testApp.http
      .post('/api/subscriptions/search')
      .set('Authorization', bearer(token))
      .send({});
    expect(subscriptions.status).toBe(200);

    const entries = await eventually(
      () => viewEntries(client.userUuid),
      (found) => found.length >= 4,
      'the opening and three requests in the log',
    );
    expect(entries).toHaveLength(4);
    expect(entries.every((entry) => entry.createdBy.id === manager.userUuid)).toBe(true);
    expect(entries.every((entry) => entry.changes.some((change) => change.field === 'viewedAsAt'))).toBe(true);
    const pages = entries.map((entry) => entry.changes.find((change) => change.field === 'viewAsPage')?.newValue);
    expect(pages.sort()).toEqual(
      ['GET /api/users/me', 'POST /api/payments/search', 'POST /api/subscriptions/search', undefined].sort(),
    );
    const viewIds = entries.flatMap((entry) =>
      entry.changes.filter((change) => change.field === 'viewAsId').map((change) => change.newValue),
    );
    expect(viewIds).toEqual([opened.body.viewId]);
  });

  it('refuses every write made with the token: transfer, buy, profile, password, vouchers, and another view', async () => {
    const token = (await open(admin, client.userUuid)).body.accessToken as string;
    const writes = [
      testApp.http.post('/api/payments/transfer').send({ recipient: 'x', amountMinor: 100 }),
      testApp.http.post('/api/subscriptions/balance/payment-plans/00000000-0000-4000-8000-000000000000').send({}),
      testApp.http.post('/api/subscriptions/renew/balance').send({}),
      testApp.http.put(`/api/users/${client.userUuid}`).send({ firstName: 'Changed', lastName: 'Name' }),
      testApp.http.put('/api/password').send({ currentPassword: client.password, newPassword: 'Another-pass-1' }),
      testApp.http.post('/api/vouchers/redeem').send({ code: 'ABCD' }),
      testApp.http.post('/api/notifications/read-all'),
      testApp.http.put('/api/users/trial-reject'),
      testApp.http.post(`/api/users/${client.userUuid}/view-as`),
      testApp.http.delete(`/api/users/${client.userUuid}/notes/00000000-0000-4000-8000-000000000000`),
    ];
    for (const write of writes) {
      const response = await write.set('Authorization', bearer(token));
      expect({ status: response.status, error: response.body.error }).toEqual({
        status: 403,
        error: 'error.view.as.read.only',
      });
    }
    const me = await testApp.http.get('/api/users/me').set('Authorization', bearer(token));
    expect(me.body.firstName).toBe('Dana');
  });

  it('is never a session: the refresh endpoint has nothing to renew, and the client stays signed in', async () => {
    const opened = await open(admin, client.userUuid);
    expect(opened.headers['set-cookie']).toBeUndefined();
    const own = await testApp.http.get('/api/users/me').set('Authorization', bearer(client.accessToken));
    expect(own.status).toBe(200);
  });

  it('refuses an expired view-as token', async () => {
    const opened = await open(admin, client.userUuid);
    const signer = new JwtService({ secret: testApp.config.jwtSecret, signOptions: { algorithm: 'HS256' } });
    const claims = signer.decode<Record<string, unknown>>(opened.body.accessToken as string);
    const { exp: _exp, iat: _iat, ...rest } = claims;
    const expired = signer.sign({ ...rest, exp: Math.floor(Date.now() / 1000) - 1 });
    const refused = await testApp.http.get('/api/users/me').set('Authorization', bearer(expired));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('error.session.expired');
  });

  it('refuses a view-as claim signed onto a staff account or naming a non-staff viewer', async () => {
    const signer = new JwtService({ secret: testApp.config.jwtSecret, signOptions: { algorithm: 'HS256' } });
    const other = await createActiveUser(testApp);
    const byClient = signer.sign(
      { sub: client.userUuid, email: client.email, role: 'CLIENT', sv: 0, vab: other.userUuid, vid: 'x' },
      { expiresIn: 60 },
    );
    expect((await testApp.http.get('/api/users/me').set('Authorization', bearer(byClient))).status).toBe(401);
  });

  it('is for admins and managers only, of clients and ambassadors only; unknown users are 404', async () => {
    const other = await createActiveUser(testApp);
    const byClient = await open(other.accessToken, client.userUuid);
    expect(byClient.status).toBe(403);
    expect(byClient.body.error).toBe('error.access.forbidden');

    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    expect((await open(manager.accessToken, ambassador.userUuid)).status).toBe(201);

    const otherManager = await createActiveUser(testApp, { role: 'MANAGER' });
    const staff = await open(admin, otherManager.userUuid);
    expect(staff.status).toBe(403);
    expect(staff.body.error).toBe('error.view.as.staff.account');
    expect((await open(manager.accessToken, manager.userUuid)).body.error).toBe('error.view.as.staff.account');

    const unknown = await open(admin, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('error.user.not.found');
  });

  it('ends when the staff member who opened it is blocked', async () => {
    const viewer = await createActiveUser(testApp, { role: 'MANAGER' });
    const token = (await open(viewer.accessToken, client.userUuid)).body.accessToken as string;
    expect((await testApp.http.get('/api/users/me').set('Authorization', bearer(token))).status).toBe(200);
    const blocked = await testApp.http
      .put(`/api/users/${viewer.userUuid}/status`)
      .set('Authorization', bearer(admin))
      .send({ status: 'BLOCKED' });
    expect(blocked.status).toBe(200);
    const refused = await eventually(
      () => testApp.http.get('/api/users/me').set('Authorization', bearer(token)),
      (response) => response.status === 401,
      'the view of a blocked manager refused',
    );
    expect(refused.body.error).toBe('error.session.expired');
  });
});
