import { randomBytes } from 'node:crypto';
import { ManualClock } from '../../../../platform/clock';
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

  it('rate limits failed attempts per address and e-mail at the default of 10 with 429 error.rate.limited', async () => {
    const user = await createActiveUser(testApp);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await signIn(user.email, 'Wrong-Pass-1!')).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    const limited = await signIn(user.email, user.password);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Another e-mail from the same address is counted on its own.
    const other = await createActiveUser(testApp);
    expect((await signInResponse(testApp, other.email, other.password)).body.userUuid).toBe(other.userUuid);
  });

  it('refuses an e-mail far too long for a counter with a 400, not a 500, and keeps no address in clear', async () => {
    // Random, so that PostgreSQL cannot compress it below its limit for an index entry.
    const email = `${randomBytes(10_000).toString('hex')}@example.com`;
    const response = await signIn(email, 'Wrong-Pass-1!');
    expect(response.status).toBe(400);
    const rows: { key: string }[] = await testApp.dataSource.query('SELECT key FROM rate_limit_windows');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.key.length < 200 && !row.key.includes('@'))).toBe(true);
  });

  it.each(['CLIENT', 'ADMIN'] as const)(
    'lets a %s in from a fresh address after twenty wrong passwords from twenty addresses (no lock-out)',
    async (role) => {
      const user = await createActiveUser(testApp, { role });
      for (let attempt = 1; attempt <= 20; attempt++) {
        const guess = await testApp.http
          .post('/api/auth/signin')
          .set('X-Forwarded-For', `192.0.2.${attempt}`)
          .send({ email: user.email, password: `Wrong-Pass-${attempt}!` });
        expect(guess.status).toBe(401);
      }
      const owner = await testApp.http
        .post('/api/auth/signin')
        .set('X-Forwarded-For', '198.51.100.200')
        .send({ email: user.email, password: user.password });
      expect(owner.status).toBe(200);
      expect(owner.body.userUuid).toBe(user.userUuid);
    },
  );
});

describe('failed sign-in limits', () => {
  const clock = new ManualClock(new Date('2026-05-01T08:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    // Small limits, set through the environment as an operator would, so that each rule can be seen on its own.
    testApp = await startTestApp({
      clock,
      env: {
        RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3/15m',
        RATE_LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '5/1h',
        RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: '4/1h',
      },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Supertest connects from the loopback address, which the app trusts to name the client in X-Forwarded-For. */
  const signInFrom = (address: string, email: string, password: string) =>
    testApp.http.post('/api/auth/signin').set('X-Forwarded-For', address).send({ email, password });

  const expectLimited = (response: { status: number; body: { error?: string }; headers: Record<string, string> }) => {
    expect(response.status).toBe(429);
    expect(response.body.error).toBe('error.rate.limited');
  };

  it('counts only wrong passwords per account and address, and lets the account in again when the window ends', async () => {
    const user = await createActiveUser(testApp);
    const address = '203.0.113.1';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signInFrom(address, user.email, user.password)).status).toBe(200);
    }
    // Malformed bodies are not guesses either.
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await testApp.http.post('/api/auth/signin').set('X-Forwarded-For', address).send({})).status).toBe(400);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await signInFrom(address, user.email, 'Wrong-Pass-1!')).status).toBe(401);
    }
    const limited = await signInFrom(address, user.email, user.password);
    expectLimited(limited);
    expect(Number(limited.headers['retry-after'])).toBe(15 * 60);
    // The same person from another address is not held back by this rule.
    expect((await signInFrom('203.0.113.2', user.email, user.password)).status).toBe(200);

    clock.advanceMs(15 * 60_000);
    expect((await signInFrom(address, user.email, user.password)).status).toBe(200);
  });

  it('limits failures per address across accounts', async () => {
    const user = await createActiveUser(testApp);
    const address = '203.0.113.10';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signInFrom(address, uniqueEmail('guess'), 'Wrong-Pass-1!')).status).toBe(401);
    }
    const limited = await signInFrom(address, user.email, user.password);
    expectLimited(limited);
    expect(Number(limited.headers['retry-after'])).toBe(60 * 60);
    expect((await signInFrom('203.0.113.11', user.email, user.password)).status).toBe(200);
  });

  it('slows an account down across addresses instead of locking it: only addresses that failed wait', async () => {
    const user = await createActiveUser(testApp);
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await signInFrom(`198.51.100.${attempt + 1}`, user.email, 'Wrong-Pass-1!')).status).toBe(401);
    }
    // The account is full: an address that failed for it waits until its own 15-minute window ends, right password
    // or not, ...
    const held = await signInFrom('198.51.100.1', user.email, user.password);
    expectLimited(held);
    expect(Number(held.headers['retry-after'])).toBe(15 * 60);
    // ... while the owner signs in at once from an address that has not failed, and a new address may guess once.
    expect((await signInFrom('198.51.100.50', user.email, user.password)).status).toBe(200);
    expect((await signInFrom('198.51.100.60', user.email, 'Wrong-Pass-1!')).status).toBe(401);
    expectLimited(await signInFrom('198.51.100.60', user.email, 'Wrong-Pass-1!'));

    clock.advanceMs(15 * 60_000);
    // The account is still full (its hour runs on), so each address gets one more guess per 15 minutes.
    expect((await signInFrom('198.51.100.1', user.email, 'Wrong-Pass-1!')).status).toBe(401);
    expectLimited(await signInFrom('198.51.100.1', user.email, user.password));
    clock.advanceMs(45 * 60_000);
    expect((await signInFrom('198.51.100.1', user.email, user.password)).status).toBe(200);
  });
});
