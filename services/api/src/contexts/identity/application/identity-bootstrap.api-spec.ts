import { startTestApp, type TestApp } from '../../../test-support/test-app';
import { BOOTSTRAP_ADMIN, bootstrapAdminEnv, signIn } from '../../../test-support/identity-fixtures';
import { AdminAccounts } from './admin-accounts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './identity-bootstrap';

describe('identity bootstrap', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { ...bootstrapAdminEnv(), DEMO_DATA: '1' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('creates the ADMIN_EMAIL admin, active, and repairs it when run again', async () => {
    const token = await signIn(testApp, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`);
    expect(me.body).toMatchObject({ email: BOOTSTRAP_ADMIN.email, role: 'ADMIN', status: 'ACTIVE' });

    const changed = await testApp.http.put('/api/password').set('Authorization', `Bearer ${token}`).send({
      oldPassword: BOOTSTRAP_ADMIN.password,
      password: 'Changed-Admin-2!',
      confirmPassword: 'Changed-Admin-2!',
    });
    expect(changed.status).toBe(204);
    const outcome = await testApp.app.get(AdminAccounts).createAdmin(BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    expect(outcome).toEqual({ userUuid: me.body.userUuid, created: false });
    expect(await signIn(testApp, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password)).toEqual(expect.any(String));
  });

  it('seeds the four demo accounts once, each able to sign in with its role', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const response = await testApp.http
        .post('/api/auth/signin')
        .send({ email: account.email, password: DEMO_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body.userRole).toBe(account.role);
    }
    const rows: Array<{ count: string }> = await testApp.dataSource.query(
      `SELECT count(*) FROM users WHERE email LIKE '%@kupa.local'`,
    );
    expect(Number(rows[0].count)).toBe(4);
  });
});
