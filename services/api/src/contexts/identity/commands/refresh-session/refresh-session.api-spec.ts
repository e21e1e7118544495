import { SESSION_APP_HEADER, type SessionApp } from '@kupa/proto';
import { ManualClock } from '../../../../platform/clock';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  adminToken,
  type ActiveUser,
  createActiveUser,
  signInResponse,
} from '../../../../test-support/identity-fixtures';
import { REFRESH_REUSE_GRACE_MS } from '../../infrastructure/sessions/refresh-tokens';

/** The `name=value` of the cookie an answer sets under that name, or null. */
function setCookie(headers: Record<string, unknown>, name: string): string | null {
  const cookie = ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .find((value) => value.startsWith(`${name}=`));
  return cookie ? cookie.split(';')[0] : null;
}

function refreshCookieOf(headers: Record<string, unknown>, name = 'kupa_refresh'): string {
  const cookie = setCookie(headers, name);
  if (!cookie) throw new Error(`No ${name} cookie in the answer`);
  return cookie;
}

/** The session cookies an answer sets; the device cookie every sign-in sets too (ADR 0099) is no session's. */
function setCookieNames(headers: Record<string, unknown>): string[] {
  return ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .map((value) => value.split('=')[0])
    .filter((name) => name !== 'kupa_device');
}

describe('session refresh and logout', () => {
  const clock = new ManualClock(new Date('2026-04-01T09:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const refresh = (cookie?: string, app?: SessionApp) => {
    let call = testApp.http.post('/api/auth/token/refresh');
    if (cookie) call = call.set('Cookie', cookie);
    if (app) call = call.set(SESSION_APP_HEADER, app);
    return call;
  };
  const afterGraceWindow = () => clock.advanceMs(REFRESH_REUSE_GRACE_MS + 1);

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

    afterGraceWindow();
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('error.session.ended');
    const newest = await refresh(third);
    expect(newest.status).toBe(401);
    expect(newest.body.error).toBe('error.session.ended');
  });

  it('keeps other sessions of the same user when one family is revoked', async () => {
    const user = await createActiveUser(testApp);
    const laptop = (await signInResponse(testApp, user.email, user.password)).refreshCookie;
    const phone = (await signInResponse(testApp, user.email, user.password)).refreshCookie;
    const laptopNext = refreshCookieOf((await refresh(laptop)).headers);
    afterGraceWindow();
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

  describe('concurrent refreshes (grace window)', () => {
    it('gives both of two simultaneous refreshes an access token and keeps the session', async () => {
      const user = await createActiveUser(testApp);
      const { refreshCookie } = await signInResponse(testApp, user.email, user.password);

      const answers = await Promise.all([refresh(refreshCookie), refresh(refreshCookie)]);

      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      for (const answer of answers) {
        const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${answer.body.accessToken}`);
        expect(me.body.userUuid).toBe(user.userUuid);
      }
      // One request rotated the token and set its successor; the duplicate leaves that cookie in place.
      const successors = answers.map((answer) => setCookie(answer.headers, 'kupa_refresh'));
      expect(successors.filter((cookie) => cookie !== null)).toHaveLength(1);
      const successor = successors.find((cookie) => cookie !== null) as string;
      expect(successor).not.toBe(refreshCookie);
      afterGraceWindow();
      expect((await refresh(successor)).status).toBe(200);
    });

    it('still revokes the family when the replaced token comes back after the window', async () => {
      const user = await createActiveUser(testApp);
      const { refreshCookie } = await signInResponse(testApp, user.email, user.password);
      const successor = refreshCookieOf((await refresh(refreshCookie)).headers);

      clock.advanceMs(REFRESH_REUSE_GRACE_MS - 1_000);
      const late = await refresh(refreshCookie);
      expect(late.status).toBe(200);
      expect(setCookie(late.headers, 'kupa_refresh')).toBeNull();

      clock.advanceMs(1_001);
      const reused = await refresh(refreshCookie);
      expect(reused.status).toBe(401);
      expect(reused.body.error).toBe('error.session.ended');
      expect((await refresh(successor)).status).toBe(401);
    });

    it('does not bring back a session that was logged out', async () => {
      const user = await createActiveUser(testApp);
      const { refreshCookie } = await signInResponse(testApp, user.email, user.password);
      const successor = refreshCookieOf((await refresh(refreshCookie)).headers);
      expect((await testApp.http.post('/api/auth/logout').set('Cookie', successor)).status).toBe(204);
      expect((await refresh(refreshCookie)).status).toBe(401);
    });
  });

  describe('one session per app in a shared browser (X-Kupa-App)', () => {
    let client: ActiveUser;
    let manager: ActiveUser;

    beforeAll(async () => {
      client = await createActiveUser(testApp);
      manager = await createActiveUser(testApp, { role: 'MANAGER' });
    });

    const signIn = (user: ActiveUser, app: SessionApp) =>
      testApp.http
        .post('/api/auth/signin')
        .set(SESSION_APP_HEADER, app)
        .send({ email: user.email, password: user.password });
    const whoIs = async (accessToken: string) =>
      (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${accessToken}`)).body.userUuid as string;

    it('keeps a client at / and staff at /admin signed in side by side, each refreshing their own session', async () => {
      const clientSignIn = await signIn(client, 'client');
      const staffSignIn = await signIn(manager, 'admin');
      expect(setCookieNames(clientSignIn.headers)).toEqual(['kupa_refresh_client']);
      expect(setCookieNames(staffSignIn.headers)).toEqual(['kupa_refresh_admin']);
      const staffCookieHeader = String(staffSignIn.headers['set-cookie']);
      expect(staffCookieHeader).toMatch(/HttpOnly/i);
      expect(staffCookieHeader).toMatch(/SameSite=Lax/i);
      expect(staffCookieHeader).toMatch(/Path=\/api\/auth/);

      // The browser sends both cookies to /api/auth; the header picks the session.
      const jar = [
        refreshCookieOf(clientSignIn.headers, 'kupa_refresh_client'),
        refreshCookieOf(staffSignIn.headers, 'kupa_refresh_admin'),
      ];
      const asClient = await refresh(jar.join('; '), 'client');
      const asStaff = await refresh(jar.join('; '), 'admin');
      expect(await whoIs(asClient.body.accessToken)).toBe(client.userUuid);
      expect(await whoIs(asStaff.body.accessToken)).toBe(manager.userUuid);
      expect(setCookieNames(asClient.headers)).toEqual(['kupa_refresh_client']);
      expect(setCookieNames(asStaff.headers)).toEqual(['kupa_refresh_admin']);
    });

    it('signs out of one app only', async () => {
      const clientCookie = refreshCookieOf((await signIn(client, 'client')).headers, 'kupa_refresh_client');
      const staffCookie = refreshCookieOf((await signIn(manager, 'admin')).headers, 'kupa_refresh_admin');
      const jar = `${clientCookie}; ${staffCookie}`;

      const logout = await testApp.http.post('/api/auth/logout').set('Cookie', jar).set(SESSION_APP_HEADER, 'admin');
      expect(logout.status).toBe(204);
      expect(setCookieNames(logout.headers)).toEqual(['kupa_refresh_admin']);

      expect((await refresh(staffCookie, 'admin')).status).toBe(401);
      const stillClient = await refresh(clientCookie, 'client');
      expect(stillClient.status).toBe(200);
      expect(await whoIs(stillClient.body.accessToken)).toBe(client.userUuid);
    });

    it('never reads another app’s cookie: callers without the header have a session of their own', async () => {
      const clientCookie = refreshCookieOf((await signIn(client, 'client')).headers, 'kupa_refresh_client');
      const unnamed = await testApp.http
        .post('/api/auth/signin')
        .send({ email: manager.email, password: manager.password });
      expect(setCookieNames(unnamed.headers)).toEqual(['kupa_refresh']);
      const unnamedCookie = refreshCookieOf(unnamed.headers);

      expect((await refresh(clientCookie)).status).toBe(401);
      expect((await refresh(clientCookie, 'admin')).status).toBe(401);
      // The client cookie was not touched by the refused calls: its session goes on.
      expect((await refresh(clientCookie, 'client')).status).toBe(200);
      const withoutHeader = await refresh(`${clientCookie}; ${unnamedCookie}`);
      expect(await whoIs(withoutHeader.body.accessToken)).toBe(manager.userUuid);
    });

    it('refuses an unknown app with a validation error and no session', async () => {
      const bad = await testApp.http
        .post('/api/auth/signin')
        .set(SESSION_APP_HEADER, 'mobile')
        .send({ email: client.email, password: client.password });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        error: 'error.validation.failed',
        details: { fields: [{ field: SESSION_APP_HEADER, error: 'error.validation.invalid.field' }] },
      });
      expect(bad.headers['set-cookie']).toBeUndefined();
      expect((await refresh('kupa_refresh_client=x', 'mobile' as SessionApp)).status).toBe(400);
      expect((await testApp.http.post('/api/auth/logout').set(SESSION_APP_HEADER, 'Admin')).status).toBe(400);
    });
  });
});
