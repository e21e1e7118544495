import type { UserSessionView } from '@kupa/proto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/**
 * Sessions (issue 33, items 4 and 5; docs/adr/0099-sessions-list-end-and-new-device-notice.md): each user lists and
 * ends their sessions, a sign-in from a new device is told by mail with a link that ends it, and an admin ends a
 * client's sessions with a reason the client is told.
 */

const LAPTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

interface Device {
  accessToken: string;
  refreshCookie: string;
  deviceCookie: string;
}

function cookieOf(headers: Record<string, unknown>, name: string): string | null {
  const cookie = ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .find((value) => value.startsWith(`${name}=`));
  return cookie ? cookie.split(';')[0] : null;
}

/**
 * Signs in from a browser: `deviceCookie` is what that browser kept from an earlier sign-in (none: a new one);
 * `address` is the client a trusted proxy names (the test app trusts loopback's X-Forwarded-For, as behind nginx).
 */
async function signInFrom(
  testApp: TestApp,
  user: ActiveUser,
  userAgent: string,
  deviceCookie?: string,
  address?: string,
): Promise<Device> {
  const request = testApp.http.post('/api/auth/signin').set('User-Agent', userAgent);
  if (deviceCookie) request.set('Cookie', deviceCookie);
  if (address) request.set('X-Forwarded-For', address);
  const response = await request.send({ email: user.email, password: user.password }).expect(200);
  return {
    accessToken: response.body.accessToken,
    refreshCookie: cookieOf(response.headers, 'kupa_refresh')!,
    deviceCookie: cookieOf(response.headers, 'kupa_device')!,
  };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('sessions', () => {
  let testApp: TestApp;
  let client: ActiveUser;
  let laptop: Device;
  let phone: Device;
  let admin: string;

  const me = (device: Device) => testApp.http.get('/api/users/me').set(bearer(device.accessToken));
  const refresh = (device: Device) => testApp.http.post('/api/auth/token/refresh').set('Cookie', device.refreshCookie);
  const sessionsOf = async (device: Device): Promise<UserSessionView[]> =>
    (await testApp.http.get('/api/users/me/sessions').set(bearer(device.accessToken)).expect(200)).body;

  beforeAll(async () => {
    testApp = await startTestApp();
    client = await createActiveUser(testApp, { language: 'en' });
    admin = await adminToken(testApp);
    laptop = await signInFrom(testApp, client, LAPTOP);
    // An Israeli address as a dual-stack proxy writes it (IPv4-mapped IPv6): the list shows it plain, with its country.
    phone = await signInFrom(testApp, client, PHONE, undefined, '::ffff:5.29.1.1');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('lists the live sessions with their device, marking the caller’s own', async () => {
    const sessions = await sessionsOf(laptop);
    const current = sessions.find((session) => session.current);
    expect(current).toMatchObject({ browser: 'Chrome 131', os: 'Windows 10', deviceType: 'desktop' });
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions).toContainEqual(
      expect.objectContaining({ browser: 'Safari 17', os: 'iOS 17', deviceType: 'mobile' }),
    );
    expect(current?.ipAddress).toBeTruthy();
    // The laptop signed in over loopback, which has no country: the address alone is what can be shown.
    expect(current?.countryCode).toBeNull();
    expect(sessions).toContainEqual(
      expect.objectContaining({ browser: 'Safari 17', ipAddress: '5.29.1.1', countryCode: 'IL' }),
    );
  });

  it('mails a sign-in from a new device, with a link that ends that session once, without signing in', async () => {
    // The fixture's sign-in came first, so the laptop is a new device too; the phone's mail is the one to follow.
    const mail = await testApp.mailbox.waitFor(client.email, (received) =>
      received.text.includes('Safari 17 on iOS 17'),
    );
    expect(mail.subject).toBe('A new device signed in to your Kupa account');
    expect(mail.text).toContain('Safari 17 on iOS 17, from Israel (5.29.1.1), on ');
    expect(mail.text).toContain('/end-session?token=');
    const notifications = await testApp.http
      .post('/api/notifications/search')
      .set(bearer(laptop.accessToken))
      .send({})
      .expect(200);
    expect(notifications.body.content).toContainEqual(
      expect.objectContaining({
        kind: 'new-device',
        params: expect.objectContaining({ device: 'Safari 17 on iOS 17', ipAddress: '5.29.1.1', countryCode: 'IL' }),
      }),
    );
    // The browser that signed in before is known: signing in again from it tells nothing new.
    const again = await signInFrom(testApp, client, LAPTOP, laptop.deviceCookie);
    const token = decodeURIComponent(/token=([^\s"&]+)/.exec(mail.text)![1]);

    expect((await me(phone)).status).toBe(200);
    await testApp.http.post('/api/sessions/end-link').send({ token }).expect(204);
    const refused = await me(phone);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('error.session.ended');
    expect((await refresh(phone)).status).toBe(401);
    const spent = await testApp.http.post('/api/sessions/end-link').send({ token }).expect(400);
    expect(spent.body.error).toBe('error.session.end.link.invalid');
    await testApp.http
      .post('/api/sessions/end-link')
      .send({ token: `${token}x` })
      .expect(400);

    const newDeviceMails = testApp.mailbox.messages.filter(
      (received) => received.to.includes(client.email) && received.text.includes('/end-session?'),
    );
    expect(newDeviceMails.map((received) => received.text.includes('Safari 17 on iOS 17'))).toEqual(
      expect.arrayContaining([true]),
    );
    expect(newDeviceMails.length).toBeLessThanOrEqual(2);
    expect((await me(again)).status).toBe(200);
  });

  it('ends one session: its access token and its refresh are refused at once; another user’s is not found', async () => {
    const tablet = await signInFrom(testApp, client, PHONE);
    const target = (await sessionsOf(tablet)).find((session) => session.current)!;
    const other = await createActiveUser(testApp);
    await testApp.http.delete(`/api/users/me/sessions/${target.id}`).set(bearer(other.accessToken)).expect(404);

    await testApp.http.delete(`/api/users/me/sessions/${target.id}`).set(bearer(laptop.accessToken)).expect(204);
    const refused = await me(tablet);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('error.session.ended');
    const refreshRefused = await refresh(tablet);
    expect(refreshRefused.status).toBe(401);
    expect(refreshRefused.body.error).toBe('error.session.ended');
    expect((await sessionsOf(laptop)).map((session) => session.id)).not.toContain(target.id);
    await testApp.http.delete(`/api/users/me/sessions/${target.id}`).set(bearer(laptop.accessToken)).expect(404);
  });

  it('ends every other session and keeps the caller’s', async () => {
    const second = await signInFrom(testApp, client, PHONE);
    const ended = await testApp.http.delete('/api/users/me/sessions').set(bearer(laptop.accessToken)).expect(200);
    expect(ended.body.ended).toBeGreaterThanOrEqual(1);
    expect((await me(second)).status).toBe(401);
    expect((await me(laptop)).status).toBe(200);
    const left = await sessionsOf(laptop);
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
  });

  it('lets staff see a client’s sessions, and an admin end them with a reason the client is told', async () => {
    await signInFrom(testApp, client, PHONE, undefined, '8.8.8.8');
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const seen = await testApp.http.get(`/api/users/${client.userUuid}/sessions`).set(bearer(manager.accessToken));
    expect(seen.status).toBe(200);
    expect(seen.body).toHaveLength(2);
    expect(seen.body.every((session: UserSessionView) => !session.current)).toBe(true);
    expect(seen.body).toContainEqual(expect.objectContaining({ ipAddress: '8.8.8.8', countryCode: 'US' }));
    await testApp.http.get(`/api/users/${manager.userUuid}/sessions`).set(bearer(admin)).expect(404);
    const body = { reason: 'SUSPICIOUS_ACTIVITY', note: 'Logins from two countries' };
    await testApp.http
      .post(`/api/users/${client.userUuid}/sessions-end`)
      .set(bearer(manager.accessToken))
      .send(body)
      .expect(403);
    await testApp.http
      .post(`/api/users/${client.userUuid}/sessions-end`)
      .set(bearer(admin))
      .send({ reason: 'BECAUSE' })
      .expect(400);

    const ended = await testApp.http
      .post(`/api/users/${client.userUuid}/sessions-end`)
      .set(bearer(admin))
      .send(body)
      .expect(200);
    expect(ended.body.ended).toBe(2);
    const refused = await me(laptop);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('error.session.ended.by.staff.suspicious');
    const refreshRefused = await refresh(laptop);
    expect(refreshRefused.status).toBe(401);
    expect(refreshRefused.body.error).toBe('error.session.ended.by.staff.suspicious');

    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set(bearer(admin))
      .send({ targetAndParentIds: [client.userUuid], size: 100 });
    expect(JSON.stringify(log.body)).toContain('Logins from two countries');
  });
});
