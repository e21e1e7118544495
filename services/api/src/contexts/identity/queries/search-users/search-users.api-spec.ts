import { type Page, SORTABLE_COLUMNS, type User } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { ManualClock } from '../../../../platform/clock';

describe('staff administration of users', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let ziv: ActiveUser;
  let avi: ActiveUser;
  let ambassador: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER', firstName: 'Maya', lastName: 'Manager' });
    clock.set(new Date('2026-03-02T09:00:00Z'));
    ziv = await createActiveUser(testApp, { email: 'ziv.search@example.com', firstName: 'Ziv', lastName: 'Bar' });
    clock.set(new Date('2026-03-03T09:00:00Z'));
    avi = await createActiveUser(testApp, { email: 'avi.search@example.com', firstName: 'Avi', lastName: 'Adler' });
    clock.set(new Date('2026-03-04T09:00:00Z'));
    ambassador = await createActiveUser(testApp, {
      role: 'AMBASSADOR',
      email: 'amb.search@example.com',
      firstName: 'Tal',
      lastName: 'Gil',
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (token: string, body: Record<string, unknown>) =>
    testApp.http.post('/api/users/search').set('Authorization', `Bearer ${token}`).send(body);
  const emails = (page: Page<User>) => page.content.map((user) => user.email);

  it('filters by role, status, keyword and registration date, and pages', async () => {
    const customers = await search(manager.accessToken, {
      roles: ['CLIENT', 'AMBASSADOR'],
      sorts: [{ id: 'email', desc: false }],
    });
    expect(customers.status).toBe(200);
    expect(emails(customers.body)).toEqual([
      'amb.search@example.com',
      'avi.search@example.com',
      'ziv.search@example.com',
    ]);

    const byName = await search(manager.accessToken, { keyWord: 'ADLER' });
    expect(emails(byName.body)).toEqual(['avi.search@example.com']);
    const byProfileId = await search(manager.accessToken, { keyWord: ziv.user.profileId });
    expect(emails(byProfileId.body)).toContain('ziv.search@example.com');
    const byFullName = await search(manager.accessToken, { keyWord: 'Tal Gil' });
    expect(emails(byFullName.body)).toEqual(['amb.search@example.com']);
    const wildcard = await search(manager.accessToken, { keyWord: '%' });
    expect(wildcard.body.totalElements).toBe(0);

    const ambassadors = await search(manager.accessToken, { roles: ['AMBASSADOR'] });
    expect(emails(ambassadors.body)).toEqual(['amb.search@example.com']);

    const window = await search(manager.accessToken, {
      roles: ['CLIENT'],
      registrationDate: { from: '2026-03-02T00:00:00Z', to: '2026-03-02T23:59:59Z' },
    });
    expect(emails(window.body)).toEqual(['ziv.search@example.com']);

    const firstPage = await search(manager.accessToken, {
      roles: ['CLIENT', 'AMBASSADOR'],
      size: 2,
      page: 0,
      sorts: [{ id: 'userCreatedAt', desc: true }],
    });
    expect(firstPage.body).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect(emails(firstPage.body)).toEqual(['amb.search@example.com', 'avi.search@example.com']);
    const secondPage = await search(manager.accessToken, {
      roles: ['CLIENT', 'AMBASSADOR'],
      size: 2,
      page: 1,
      sorts: [{ id: 'userCreatedAt', desc: true }],
    });
    expect(emails(secondPage.body)).toEqual(['ziv.search@example.com']);

    const byFullNameSort = await search(manager.accessToken, {
      roles: ['CLIENT', 'AMBASSADOR'],
      sorts: [{ id: 'fullName', desc: true }],
    });
    expect(emails(byFullNameSort.body)).toEqual([
      'ziv.search@example.com',
      'amb.search@example.com',
      'avi.search@example.com',
    ]);
  });

  it('sorts by the balance the ledger keeps, a user it never booked for at zero, and shows it in each payload', async () => {
    for (const [client, amount] of [
      [ziv, 25],
      [avi, 10.5],
    ] as const) {
      const deposit = await testApp.http
        .post('/api/payments')
        .set('Authorization', `Bearer ${admin}`)
        .set('Idempotency-Key', randomUUID())
        .send({ userUuid: client.userUuid, amount, action: 'DEPOSIT', comment: 'search fixture' });
      expect(deposit.status).toBe(201);
    }
    const customers = { roles: ['CLIENT', 'AMBASSADOR'] };
    const richestFirst = await search(manager.accessToken, { ...customers, sorts: [{ id: 'balance', desc: true }] });
    expect(richestFirst.status).toBe(200);
    expect(richestFirst.body.content.map((user: User) => [user.email, user.balance])).toEqual([
      ['ziv.search@example.com', 25],
      ['avi.search@example.com', 10.5],
      ['amb.search@example.com', 0],
    ]);
    expect(richestFirst.body.totalElements).toBe(3);

    const poorestFirst = await search(manager.accessToken, { ...customers, sorts: [{ id: 'balance', desc: false }] });
    expect(emails(poorestFirst.body)).toEqual([
      'amb.search@example.com',
      'avi.search@example.com',
      'ziv.search@example.com',
    ]);
    const secondPage = await search(manager.accessToken, {
      ...customers,
      size: 1,
      page: 1,
      sorts: [{ id: 'balance', desc: true }],
    });
    expect(secondPage.body).toMatchObject({ page: 1, size: 1, totalElements: 3 });
    expect(emails(secondPage.body)).toEqual(['avi.search@example.com']);
  });

  it('filters by status after a block', async () => {
    await testApp.http
      .put(`/api/users/${ziv.userUuid}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'BLOCKED' });
    const blocked = await search(manager.accessToken, { statuses: ['BLOCKED'] });
    expect(emails(blocked.body)).toEqual(['ziv.search@example.com']);
    await testApp.http
      .put(`/api/users/${ziv.userUuid}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'ACTIVE' });
  });

  it('refuses bad search input with catalogue codes', async () => {
    const tooBig = await search(manager.accessToken, { size: 101 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.details.fields).toContainEqual({
      field: 'size',
      error: 'error.validation.page.size',
      params: { max: 100 },
    });
    const badSort = await search(manager.accessToken, { sorts: [{ id: 'password', desc: false }] });
    expect(badSort.status).toBe(400);
    // An Object.prototype member is no column either: it must be refused, not reach ORDER BY.
    const inheritedSort = await search(manager.accessToken, { sorts: [{ id: 'constructor', desc: false }] });
    expect(inheritedSort.status).toBe(400);
    for (const id of SORTABLE_COLUMNS.users) {
      expect((await search(manager.accessToken, { sorts: [{ id, desc: true }] })).status).toBe(200);
    }
    const longKeyword = await search(manager.accessToken, { keyWord: 'x'.repeat(257) });
    expect(longKeyword.status).toBe(400);
    const badStatus = await search(manager.accessToken, { statuses: ['GONE'] });
    expect(badStatus.status).toBe(400);
  });

  it('keeps clients out of staff calls and out of each other’s records', async () => {
    expect((await search(avi.accessToken, {})).status).toBe(403);
    const other = await testApp.http
      .get(`/api/users/${ziv.userUuid}`)
      .set('Authorization', `Bearer ${avi.accessToken}`);
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('error.user.not.found');
    const own = await testApp.http.get(`/api/users/${avi.userUuid}`).set('Authorization', `Bearer ${avi.accessToken}`);
    expect(own.status).toBe(200);
    const byStaff = await testApp.http
      .get(`/api/users/${avi.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(byStaff.body.email).toBe('avi.search@example.com');
    const malformed = await testApp.http
      .get('/api/users/not-a-uuid')
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('error.user.not.found');
    expect((await testApp.http.get('/api/users/me')).status).toBe(401);
  });

  it('edits names: a client only their own, staff anyone', async () => {
    const own = await testApp.http
      .put(`/api/users/${avi.userUuid}`)
      .set('Authorization', `Bearer ${avi.accessToken}`)
      .send({ firstName: 'Avraham', lastName: 'Adler' });
    expect(own.status).toBe(200);
    expect(own.body.fullName).toBe('Avraham Adler');
    const other = await testApp.http
      .put(`/api/users/${ziv.userUuid}`)
      .set('Authorization', `Bearer ${avi.accessToken}`)
      .send({ firstName: 'X', lastName: 'Y' });
    expect(other.status).toBe(404);
    const invalid = await testApp.http
      .put(`/api/users/${avi.userUuid}`)
      .set('Authorization', `Bearer ${avi.accessToken}`)
      .send({ firstName: '', lastName: 'Adler' });
    expect(invalid.body.details.fields).toContainEqual({ field: 'firstName', error: 'error.validation.blank' });
    const byStaff = await testApp.http
      .put(`/api/users/${ziv.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ firstName: 'Ziv', lastName: 'Baruch' });
    expect(byStaff.body.lastName).toBe('Baruch');
  });

  it('refuses a manager renaming an admin or another manager, and changes nothing', async () => {
    const otherAdmin = await createActiveUser(testApp, { role: 'ADMIN', firstName: 'Ada', lastName: 'Admin' });
    const otherManager = await createActiveUser(testApp, { role: 'MANAGER', firstName: 'Moti', lastName: 'Manager' });
    for (const target of [otherAdmin, otherManager]) {
      const renamed = await testApp.http
        .put(`/api/users/${target.userUuid}`)
        .set('Authorization', `Bearer ${manager.accessToken}`)
        .send({ firstName: 'Mallory', lastName: 'Owned' });
      expect(renamed.status).toBe(403);
      expect(renamed.body).toMatchObject({ error: 'error.access.forbidden', details: { reason: 'staff.account' } });
      const read = await testApp.http.get(`/api/users/${target.userUuid}`).set('Authorization', `Bearer ${admin}`);
      expect(read.body.lastName).not.toBe('Owned');
    }
    const byAdmin = await testApp.http
      .put(`/api/users/${otherManager.userUuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ firstName: 'Moti', lastName: 'Levi' });
    expect(byAdmin.body.lastName).toBe('Levi');
    const ownName = await testApp.http
      .put(`/api/users/${manager.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ firstName: 'Maya', lastName: 'Manager' });
    expect(ownName.status).toBe(200);
  });

  it('applies the staff guard rails on role and status changes', async () => {
    const promote = await testApp.http
      .put(`/api/users/${avi.userUuid}/role`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ role: 'MANAGER' });
    expect(promote.status).toBe(403);
    const toAmbassador = await testApp.http
      .put(`/api/users/${avi.userUuid}/role`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ role: 'AMBASSADOR' });
    expect(toAmbassador.body.role).toBe('AMBASSADOR');
    const ownStatus = await testApp.http
      .put(`/api/users/${manager.userUuid}/status`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ status: 'BLOCKED' });
    expect(ownStatus.status).toBe(403);
    const blockManager = await testApp.http
      .put(`/api/users/${manager.userUuid}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'BLOCKED' });
    expect(blockManager.body.status).toBe('BLOCKED');
    await testApp.http
      .put(`/api/users/${manager.userUuid}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'ACTIVE' });
    const badRole = await testApp.http
      .put(`/api/users/${avi.userUuid}/role`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ role: 'ROOT' });
    expect(badRole.status).toBe(400);
  });

  it('lets a client or ambassador decline the trial once, quietly on repeat', async () => {
    expect(
      (await testApp.http.put('/api/users/trial-reject').set('Authorization', `Bearer ${ambassador.accessToken}`))
        .status,
    ).toBe(204);
    expect(
      (await testApp.http.put('/api/users/trial-reject').set('Authorization', `Bearer ${ambassador.accessToken}`))
        .status,
    ).toBe(204);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${ambassador.accessToken}`);
    expect(me.body.trialRejected).toBe(true);
    expect(
      (await testApp.http.put('/api/users/trial-reject').set('Authorization', `Bearer ${manager.accessToken}`)).status,
    ).toBe(403);
  });

  it('lets only an admin create users, active at once', async () => {
    const body = {
      email: 'new.staff@example.com',
      firstName: 'New',
      lastName: 'Staff',
      role: 'MANAGER',
      password: 'Staff-Pass-1!',
    };
    expect(
      (await testApp.http.post('/api/users').set('Authorization', `Bearer ${manager.accessToken}`).send(body)).status,
    ).toBe(403);
    const created = await testApp.http.post('/api/users').set('Authorization', `Bearer ${admin}`).send(body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'new.staff@example.com', role: 'MANAGER', status: 'ACTIVE' });
    const duplicate = await testApp.http.post('/api/users').set('Authorization', `Bearer ${admin}`).send(body);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('error.login.already.in.use');
  });
});
