import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  adminToken,
  createActiveUser,
  FIXTURE_PASSWORD,
  signInResponse,
  uniqueEmail,
} from '../../../../test-support/identity-fixtures';

describe('sign-in', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signIn = (email: string, password: string) => testApp.http.post('/api/auth/signin').send({ email, password });

  it('answers the session and sets an httpOnly, SameSite=Lax refresh cookie on /api/auth', async () => {
    const user = await createActiveUser(testApp);
    const response = await signIn(user.email, user.password);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['accessToken', 'email', 'userRole', 'userUuid']);
    const cookie = ([] as string[])
      .concat(response.headers['set-cookie'] ?? [])
      .find((value) => value.startsWith('kupa_refresh='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('refuses a wrong password and an unknown e-mail alike', async () => {
    const user = await createActiveUser(testApp);
    const wrong = await signIn(user.email, 'Wrong-Pass-1!');
    const unknown = await signIn(uniqueEmail('ghost'), FIXTURE_PASSWORD);
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('error.auth.bad.credentials');
    }
  });

  it('refuses a blocked user, and a blocked user’s live access token stops working at once', async () => {
    const user = await createActiveUser(testApp);
    expect((await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`)).status).toBe(
      200,
    );
    const blocked = await testApp.http
      .put(`/api/users/${user.userUuid}/status`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ status: 'BLOCKED' });
    expect(blocked.status).toBe(200);
    expect(blocked.body.status).toBe('BLOCKED');

    const next = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`);
    expect(next.status).toBe(403);
    expect(next.body.error).toBe('error.account.blocked');

    const again = await signIn(user.email, user.password);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('error.account.blocked');
  });

  it('rate limits attempts per address and e-mail with 429 error.rate.limited', async () => {
    const user = await createActiveUser(testApp);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await signIn(user.email, 'Wrong-Pass-1!')).status);
    expect(statuses.slice(0, 9).every((status) => status === 401)).toBe(true);
    const limited = await signIn(user.email, user.password);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
    // Another e-mail from the same address is counted on its own.
    const other = await createActiveUser(testApp);
    expect((await signInResponse(testApp, other.email, other.password)).body.userUuid).toBe(other.userUuid);
  });
});
