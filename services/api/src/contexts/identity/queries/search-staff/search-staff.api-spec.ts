import { type Page, SORTABLE_COLUMNS, type User } from '@kupa/proto';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { ManualClock } from '../../../../platform/clock';

/** The staff list (ADR 0078): staff accounts for admins, with who referred each client on the staff answers. */
describe('staff list and referrers', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-03-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let secondAdmin: ActiveUser;
  let referrer: ActiveUser;
  let referred: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, {
      role: 'MANAGER',
      email: 'maya.staff@example.com',
      firstName: 'Maya',
      lastName: 'Manager',
    });
    clock.set(new Date('2026-03-02T09:00:00Z'));
    secondAdmin = await createActiveUser(testApp, {
      role: 'ADMIN',
      email: 'adi.staff@example.com',
      firstName: 'Adi',
      lastName: 'Admin',
    });
    referrer = await createActiveUser(testApp, {
      role: 'AMBASSADOR',
      email: 'tal.ref@example.com',
      firstName: 'Tal',
      lastName: 'Gil',
    });
    referred = await createActiveUser(testApp, {
      email: 'dana.ref@example.com',
      firstName: 'Dana',
      lastName: 'Levi',
      referralToken: referrer.user.profileId,
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const searchStaff = (token: string, body: Record<string, unknown>) =>
    testApp.http.post('/api/users/staff/search').set('Authorization', `Bearer ${token}`).send(body);
  const emails = (page: Page<User>) => page.content.map((user) => user.email);

  it('lists staff accounts only, found by keyword, role and two-factor state, sorted by any offered column', async () => {
    const all = await searchStaff(admin, { sorts: [{ id: 'email', desc: false }] });
    expect(all.status).toBe(200);
    expect(all.headers['cache-control']).toContain('no-store');
    const listed = all.body as Page<User>;
    expect(listed.content.every((user) => user.role === 'ADMIN' || user.role === 'MANAGER')).toBe(true);
    expect(emails(listed)).toEqual(expect.arrayContaining(['adi.staff@example.com', 'maya.staff@example.com']));
    expect(emails(listed)).not.toContain('dana.ref@example.com');
    expect(emails(listed)).not.toContain('tal.ref@example.com');

    expect(emails((await searchStaff(admin, { keyWord: 'MAYA' })).body)).toEqual(['maya.staff@example.com']);
    expect(emails((await searchStaff(admin, { keyWord: 'dana' })).body)).toEqual([]);
    const managers = await searchStaff(admin, { roles: ['MANAGER'] });
    expect(emails(managers.body)).toEqual(['maya.staff@example.com']);
    const withoutTwoFactor = await searchStaff(admin, { twoFactorEnabled: false, keyWord: 'staff@' });
    expect(emails(withoutTwoFactor.body).sort()).toEqual(['adi.staff@example.com', 'maya.staff@example.com']);
    expect((await searchStaff(admin, { twoFactorEnabled: true, keyWord: 'staff@' })).body.totalElements).toBe(0);

    const newestFirst = await searchStaff(admin, { keyWord: 'staff@', sorts: [{ id: 'userCreatedAt', desc: true }] });
    expect(emails(newestFirst.body)).toEqual(['adi.staff@example.com', 'maya.staff@example.com']);
    for (const id of SORTABLE_COLUMNS.staff)
      expect((await searchStaff(admin, { sorts: [{ id, desc: true }] })).status).toBe(200);
  });

  it('refuses customer roles, unknown sorts and a balance sort with catalogue codes', async () => {
    const customers = await searchStaff(admin, { roles: ['CLIENT'] });
    expect(customers.status).toBe(400);
    expect(customers.body.details.fields[0].field).toBe('roles');
    for (const id of ['balance', 'constructor', 'password']) {
      const refused = await searchStaff(admin, { sorts: [{ id, desc: false }] });
      expect([refused.status, refused.body.error]).toEqual([400, 'error.validation.failed']);
    }
    const notBoolean = await searchStaff(admin, { twoFactorEnabled: 'yes' });
    expect(notBoolean.status).toBe(400);
  });

  it('answers 403 to a manager and a client, and 401 without a token', async () => {
    const byManager = await searchStaff(manager.accessToken, {});
    expect([byManager.status, byManager.body.error]).toEqual([403, 'error.access.forbidden']);
    expect((await searchStaff(referred.accessToken, {})).status).toBe(403);
    expect((await testApp.http.post('/api/users/staff/search').send({})).status).toBe(401);
    // Another admin lists staff as well: the list is the role's, not the first admin's.
    expect((await searchStaff(secondAdmin.accessToken, {})).status).toBe(200);
  });

  it('shows staff who referred a client, in the clients search and the detail, but not the client', async () => {
    const expected = {
      userUuid: referrer.userUuid,
      profileId: referrer.user.profileId,
      fullName: 'Tal Gil',
      email: 'tal.ref@example.com',
    };
    const found = await testApp.http
      .post('/api/users/search')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ keyWord: '.ref@', sorts: [{ id: 'email', desc: false }] });
    const byEmail = new Map((found.body as Page<User>).content.map((user) => [user.email, user]));
    expect(byEmail.get('dana.ref@example.com')?.referrer).toEqual(expected);
    expect(byEmail.get('tal.ref@example.com')?.referrer).toBeNull();

    const detail = await testApp.http
      .get(`/api/users/${referred.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(detail.body.referrer).toEqual(expected);

    // A client's own record keeps what it always held: no referrer's name or e-mail.
    for (const path of [`/api/users/${referred.userUuid}`, '/api/users/me']) {
      const own = await testApp.http.get(path).set('Authorization', `Bearer ${referred.accessToken}`);
      expect(own.status).toBe(200);
      expect(own.body).not.toHaveProperty('referrer');
    }
  });
});
