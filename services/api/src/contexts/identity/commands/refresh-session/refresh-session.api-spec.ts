import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { adminToken, createActiveUser, signInResponse } from '../../../../test-support/identity-fixtures';

function refreshCookieOf(headers: Record<string, unknown>): string {
  const cookie = ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .find((value) => value.startsWith('kupa_refresh='));
  if (!cookie) throw new Error('No refresh cookie in the answer');
  return cookie.split(';')[0];
}

describe('session refresh and logout', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const refresh = (cookie?: string) => {
    const call = testApp.http.post('/api/auth/token/refresh');
    return cookie ? call.set('Cookie', cookie) : call;
  };

  it('rotates the refresh token on every use, and a reused one revokes the whole family', async () => {
    const user = await createActiveUser(testApp);
    const { refreshCookie: first } = await signInResponse(testApp, user.email, user.password);

    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    expect(typeof rotated.body.accessToken).toBe('string');
    const second = refreshCookieOf(rotated.headers);
    expect(second).not.toBe(first);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${rotated.body.accessToken}`);
    expect(me.body.userUuid).toBe(user.userUuid);

    const third = refreshCookieOf((await refresh(second)).headers);

    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('error.session.expired');
    const newest = await refresh(third);
    expect(newest.status).toBe(401);
    expect(newest.body.error).toBe('error.session.expired');
  });

  it('keeps other sessions of the same user when one family is revoked', async () => {
    const user = await createActiveUser(testApp);
    const laptop = (await signInResponse(testApp, user.email, user.password)).refreshCookie;
    const phone = (await signInResponse(testApp, user.email, user.password)).refreshCookie;
    const laptopNext = refreshCookieOf((await refresh(laptop)).headers);
    expect((await refresh(laptop)).status).toBe(401);
    expect((await refresh(laptopNext)).status).toBe(401);
    expect((await refresh(phone)).status).toBe(200);
  });

  it('answers 401 without a cookie and for a forged one', async () => {
    expect((await refresh()).body.error).toBe('error.session.expired');
    expect((await refresh('kupa_refresh=forged')).status).toBe(401);
  });

  it('logs out with or without an access token, revoking the session and clearing the cookie', async () => {
    const user = await createActiveUser(testApp);
    const { refreshCookie } = await signInResponse(testApp, user.email, user.password);
    const logout = await testApp.http.post('/api/auth/logout').set('Cookie', refreshCookie);
    expect(logout.status).toBe(204);
    expect(String(logout.headers['set-cookie'])).toMatch(/kupa_refresh=;.*Expires=Thu, 01 Jan 1970/);
    expect((await refresh(refreshCookie)).status).toBe(401);
    expect((await testApp.http.post('/api/auth/logout')).status).toBe(204);
  });

  it('refuses to refresh a blocked user’s session', async () => {
    const user = await createActiveUser(testApp);
    const { refreshCookie } = await signInResponse(testApp, user.email, user.password);
    await testApp.http
      .put(`/api/users/${user.userUuid}/status`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ status: 'BLOCKED' });
    const refused = await refresh(refreshCookie);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('error.account.blocked');
  });
});
