import { JwtService } from '@nestjs/jwt';
import type { TwoFactorEnrolment } from '@kupa/proto';
import { generateSync } from 'otplib';
import { ManualClock } from '../../../../platform/clock';
import {
  type ActiveUser,
  adminToken,
  createActiveUser,
  signInResponse,
} from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { REFRESH_REUSE_GRACE_MS } from '../../infrastructure/sessions/refresh-tokens';
import { hashSecretToken } from '../../../../platform/crypto';

/**
 * Issue 27, items 2 and 3, the way the probe found them: every path to a staff token asks for the second factor, and
 * sessions end (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md).
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

function codeAt(secret: string, at: Date): string {
  return generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

function refreshCookieOf(headers: Record<string, unknown>): string {
  const cookie = ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .find((value) => value.startsWith('kupa_refresh='));
  if (!cookie) throw new Error('No refresh cookie in the answer');
  return cookie.split(';')[0];
}

const refresh = (testApp: TestApp, cookie: string) =>
  testApp.http.post('/api/auth/token/refresh').set('Cookie', cookie);
const me = (testApp: TestApp, accessToken: string) =>
  testApp.http.get('/api/users/me').set('Authorization', `Bearer ${accessToken}`);

/** Books a manual deposit for `client`, as the probe did with a staff token that no second factor had opened. */
const manualDeposit = (testApp: TestApp, accessToken: string, client: ActiveUser) =>
  testApp.http
    .post('/api/payments')
    .set('Authorization', `Bearer ${accessToken}`)
    .send({ userUuid: client.userUuid, amount: 50, action: 'DEPOSIT' });

describe('a staff session opened before STAFF_2FA_REQUIRED=1', () => {
  const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
  let before: TestApp | null = null;
  let after: TestApp;
  let manager: { accessToken: string; refreshCookie: string };
  let client: ActiveUser;
  let clientCookie: string;

  beforeAll(async () => {
    before = await startTestApp({ clock });
    const staff = await createActiveUser(before, { role: 'MANAGER' });
    const session = await signInResponse(before, staff.email, staff.password);
    manager = { accessToken: session.body.accessToken, refreshCookie: session.refreshCookie };
    client = await createActiveUser(before);
    clientCookie = (await signInResponse(before, client.email, client.password)).refreshCookie;
    // The operator turns the policy on and restarts the server on the same database.
    await before.app.close();
    await before.mailbox.stop();
    after = await startTestApp({ clock, database: before.database, env: { STAFF_2FA_REQUIRED: '1' } });
  });

  afterAll(async () => {
    await after.close();
  });

  it('yields no staff token on refresh, and its access token books no deposit', async () => {
    const booked = await manualDeposit(after, manager.accessToken, client);
    expect(booked.status).toBe(401);
    expect(booked.body.error).toBe('error.session.second.factor.required');

    const refreshed = await refresh(after, manager.refreshCookie);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.error).toBe('error.session.second.factor.required');
    expect(refreshed.body.accessToken).toBeUndefined();
    // The session is over, not merely refused once, and every later refresh still says why (the console shows it).
    const again = await refresh(after, manager.refreshCookie);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('error.session.second.factor.required');
    const token = manager.refreshCookie.slice(manager.refreshCookie.indexOf('=') + 1);
    const rows: Array<{ revoked: boolean }> = await after.dataSource.query(
      `SELECT revoked_at IS NOT NULL AS revoked FROM refresh_tokens WHERE token_hash = $1`,
      [hashSecretToken(decodeURIComponent(token))],
    );
    expect(rows).toEqual([{ revoked: true }]);
  });

  it('keeps a client’s session: the policy is about staff', async () => {
    const refreshed = await refresh(after, clientCookie);
    expect(refreshed.status).toBe(200);
    expect((await me(after, refreshed.body.accessToken)).status).toBe(200);
  });
});

describe('sessions end with the second factor, logout and a stolen refresh token', () => {
  const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function twoSessions(user: ActiveUser) {
    const laptop = await signInResponse(testApp, user.email, user.password);
    const phone = await signInResponse(testApp, user.email, user.password);
    return {
      laptop: { accessToken: laptop.body.accessToken, cookie: laptop.refreshCookie },
      phone: { accessToken: phone.body.accessToken, cookie: phone.refreshCookie },
    };
  }

  async function enrolWith(accessToken: string): Promise<string> {
    const started = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${accessToken}`);
    expect(started.status).toBe(201);
    const { secret } = started.body as TwoFactorEnrolment;
    const activated = await testApp.http
      .post('/api/auth/two-factor/activation')
      .set('Authorization', `Bearer ${accessToken}`)
      .send({ code: codeAt(secret, clock.now()) });
    expect(activated.status).toBe(200);
    return secret;
  }

  it('turning one’s two-factor sign-in on ends the other sessions at once and keeps the one that turned it on', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const { laptop, phone } = await twoSessions(staff);
    await enrolWith(laptop.accessToken);

    expect((await me(testApp, phone.accessToken)).status).toBe(401);
    const phoneRefresh = await refresh(testApp, phone.cookie);
    expect(phoneRefresh.status).toBe(401);
    expect(phoneRefresh.body.error).toBe('error.session.ended');

    const laptopRefresh = await refresh(testApp, laptop.cookie);
    expect(laptopRefresh.status).toBe(200);
    expect((await me(testApp, laptopRefresh.body.accessToken)).body.twoFactorEnabled).toBe(true);
  });

  it('turning it off ends the other sessions too', async () => {
    const staff = await createActiveUser(testApp, { role: 'ADMIN' });
    const secret = await enrolWith(staff.accessToken);
    clock.advanceMs(30_000);
    const laptop = await testApp.http
      .post('/api/auth/signin')
      .send({ email: staff.email, password: staff.password, otp: codeAt(secret, clock.now()) });
    clock.advanceMs(30_000);
    const phone = await testApp.http
      .post('/api/auth/signin')
      .send({ email: staff.email, password: staff.password, otp: codeAt(secret, clock.now()) });
    expect([laptop.status, phone.status]).toEqual([200, 200]);

    clock.advanceMs(30_000);
    const disabled = await testApp.http
      .post('/api/auth/two-factor/deactivation')
      .set('Authorization', `Bearer ${laptop.body.accessToken}`)
      .send({ code: codeAt(secret, clock.now()) });
    expect(disabled.status).toBe(204);

    expect((await me(testApp, phone.body.accessToken)).status).toBe(401);
    const phoneRefresh = await refresh(testApp, refreshCookieOf(phone.headers));
    expect(phoneRefresh.status).toBe(401);
    expect(phoneRefresh.body.error).toBe('error.session.ended');
    expect((await refresh(testApp, refreshCookieOf(laptop.headers))).status).toBe(200);
  });

  it('an admin’s reset for a lost phone ends every session of that account', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const secret = await enrolWith(staff.accessToken);
    clock.advanceMs(30_000);
    const thief = await testApp.http
      .post('/api/auth/signin')
      .send({ email: staff.email, password: staff.password, otp: codeAt(secret, clock.now()) });
    expect(thief.status).toBe(200);

    const reset = await testApp.http
      .delete(`/api/users/${staff.userUuid}/two-factor`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`);
    expect(reset.status).toBe(204);

    const used = await me(testApp, thief.body.accessToken);
    expect(used.status).toBe(401);
    const refreshed = await refresh(testApp, refreshCookieOf(thief.headers));
    expect(refreshed.status).toBe(401);
    // Staff ended it, and the sign-in page can say so (ADR 0079); nothing more is told.
    expect(refreshed.body.error).toBe('error.session.ended.by.staff');
  });

  it('a password staff set ends the client’s sessions and says staff did it; the owner’s own change does not', async () => {
    const client = await createActiveUser(testApp);
    const { laptop, phone } = await twoSessions(client);

    const set = await testApp.http
      .put(`/api/password/users/${client.userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ password: 'Staff-set#2026' });
    expect(set.status).toBe(204);

    // The access token is refused at once; the refresh the client app then tries names the reason.
    expect((await me(testApp, laptop.accessToken)).status).toBe(401);
    const refreshed = await refresh(testApp, laptop.cookie);
    expect(refreshed.status).toBe(401);
    expect(refreshed.body).toMatchObject({ status: 401, error: 'error.session.ended.by.staff' });
    // Nothing sensitive: neither who set it (no e-mail) nor what it is.
    expect(JSON.stringify(refreshed.body)).not.toMatch(/@|Staff-set/);

    // Signed in again with the new password, the client changes it themselves: the other session ends as before.
    const again = await twoSessions({ ...client, password: 'Staff-set#2026' });
    const changed = await testApp.http
      .put('/api/password')
      .set('Authorization', `Bearer ${again.laptop.accessToken}`)
      .send({ oldPassword: 'Staff-set#2026', password: 'Own-choice#2026', confirmPassword: 'Own-choice#2026' });
    expect(changed.status).toBe(204);
    const other = await refresh(testApp, again.phone.cookie);
    expect(other.status).toBe(401);
    expect(other.body.error).toBe('error.session.ended');
    expect(phone.cookie).toBeDefined();
  });

  it('logout ends the access tokens of that session at once, not 15 minutes later, and no other session', async () => {
    const user = await createActiveUser(testApp);
    const { laptop, phone } = await twoSessions(user);
    expect((await me(testApp, laptop.accessToken)).status).toBe(200);

    const loggedOut = await testApp.http.post('/api/auth/logout').set('Cookie', laptop.cookie);
    expect(loggedOut.status).toBe(204);

    const after = await me(testApp, laptop.accessToken);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('error.session.ended');
    expect((await me(testApp, phone.accessToken)).status).toBe(200);
  });

  it('an access token of a session logged out enrols no authenticator either', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const { laptop } = await twoSessions(staff);
    expect((await testApp.http.post('/api/auth/logout').set('Cookie', laptop.cookie)).status).toBe(204);

    const enrolment = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${laptop.accessToken}`);
    expect(enrolment.status).toBe(401);
    expect(enrolment.body.error).toBe('error.session.ended');
  });

  it('a stolen refresh token, once detected, ends the access tokens already issued to the session', async () => {
    const user = await createActiveUser(testApp);
    const signedIn = await signInResponse(testApp, user.email, user.password);
    const rotated = await refresh(testApp, signedIn.refreshCookie);
    expect(rotated.status).toBe(200);
    const current = rotated.body.accessToken as string;
    expect((await me(testApp, current)).status).toBe(200);

    clock.advanceMs(REFRESH_REUSE_GRACE_MS + 1);
    const reused = await refresh(testApp, signedIn.refreshCookie);
    expect(reused.status).toBe(401);
    expect(reused.body.error).toBe('error.session.ended');

    const after = await me(testApp, current);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('error.session.ended');
  });

  it('refuses an access token without exp, signed with the server’s own key', async () => {
    const user = await createActiveUser(testApp);
    const claims = { sub: user.userUuid, email: user.email, role: user.role, sv: 0 };
    const signer = new JwtService({ secret: testApp.config.jwtSecret, signOptions: { algorithm: 'HS256' } });
    const forever = signer.sign(claims);
    const withExp = signer.sign(claims, { expiresIn: 60 });
    expect((await me(testApp, withExp)).status).toBe(200);

    const refused = await me(testApp, forever);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('error.token.invalid');
  });
});

describe('sessions end by policy', () => {
  const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Refreshes every `everyMs` until a refusal; answers the refusal and how long the session lasted. */
  async function keepRefreshing(cookie: string, everyMs: number, limitMs: number) {
    const startedAtMs = clock.now().getTime();
    let current = cookie;
    while (clock.now().getTime() - startedAtMs <= limitMs) {
      clock.advanceMs(everyMs);
      const answer = await refresh(testApp, current);
      if (answer.status !== 200) return { error: answer.body.error, lastedMs: clock.now().getTime() - startedAtMs };
      current = refreshCookieOf(answer.headers);
    }
    return { error: null, lastedMs: clock.now().getTime() - startedAtMs };
  }

  it('a staff session used every 20 minutes ends after 12 hours, and says so', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const { refreshCookie } = await signInResponse(testApp, staff.email, staff.password);
    const ended = await keepRefreshing(refreshCookie, 20 * MINUTE_MS, 13 * HOUR_MS);
    expect(ended).toEqual({ error: 'error.session.lifetime.reached', lastedMs: 12 * HOUR_MS });
  });

  it('a staff session left alone for 31 minutes ends as idle', async () => {
    const staff = await createActiveUser(testApp, { role: 'ADMIN' });
    const { refreshCookie } = await signInResponse(testApp, staff.email, staff.password);
    clock.advanceMs(29 * MINUTE_MS);
    const inTime = await refresh(testApp, refreshCookie);
    expect(inTime.status).toBe(200);
    clock.advanceMs(31 * MINUTE_MS);
    const idle = await refresh(testApp, refreshCookieOf(inTime.headers));
    expect(idle.status).toBe(401);
    expect(idle.body.error).toBe('error.session.idle');
  });

  it('a client session used monthly does not live forever: idle after 7 days, over after 30 in all', async () => {
    const client = await createActiveUser(testApp);
    const away = await signInResponse(testApp, client.email, client.password);
    clock.advanceMs(8 * DAY_MS);
    const idle = await refresh(testApp, away.refreshCookie);
    expect(idle.status).toBe(401);
    expect(idle.body.error).toBe('error.session.idle');

    const weekly = await signInResponse(testApp, client.email, client.password);
    const ended = await keepRefreshing(weekly.refreshCookie, 6 * DAY_MS, 31 * DAY_MS);
    expect(ended).toEqual({ error: 'error.session.lifetime.reached', lastedMs: 30 * DAY_MS });
  });

  it('sets the refresh cookie to expire when the session would, not 30 days out', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const signedIn = await testApp.http.post('/api/auth/signin').send({ email: staff.email, password: staff.password });
    const cookie = ([] as string[])
      .concat(signedIn.headers['set-cookie'] ?? [])
      .find((value) => value.startsWith('kupa_refresh='));
    const expires = /Expires=([^;]+)/.exec(cookie ?? '')?.[1];
    expect(new Date(expires ?? 0).getTime()).toBe(clock.now().getTime() + 30 * MINUTE_MS);
  });
});

describe('sessions end by a configured policy', () => {
  const clock = new ManualClock(new Date('2026-05-04T08:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      clock,
      env: { SESSION_STAFF_MAX_HOURS: '2', SESSION_STAFF_IDLE_MINUTES: '90' },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('follows SESSION_STAFF_IDLE_MINUTES and SESSION_STAFF_MAX_HOURS', async () => {
    const staff = await createActiveUser(testApp, { role: 'MANAGER' });
    const { refreshCookie } = await signInResponse(testApp, staff.email, staff.password);
    clock.advanceMs(80 * MINUTE_MS);
    const inTime = await refresh(testApp, refreshCookie);
    expect(inTime.status).toBe(200);
    clock.advanceMs(40 * MINUTE_MS);
    const over = await refresh(testApp, refreshCookieOf(inTime.headers));
    expect(over.status).toBe(401);
    expect(over.body.error).toBe('error.session.lifetime.reached');
  });
});
