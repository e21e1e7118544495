import { LIMITS, type User } from '@kupa/proto';
import crypto from 'node:crypto';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import {
  adminToken,
  type ActiveUser,
  createActiveUser,
  FIXTURE_PASSWORD,
  signInResponse,
  uniqueEmail,
} from '../../../test-support/identity-fixtures';
import { PROFILE_ID_ATTEMPTS } from '../infrastructure/accounts/profile-ids';

/**
 * Account creation against a real database. Profile IDs come from the operating system's random numbers
 * (`crypto.randomInt`), the edge of the outside world: the collision tests script those numbers so that the IDs
 * drawn are already taken, and the unique index on `users.profile_id` refuses them for real.
 */
describe('account creation', () => {
  let testApp: TestApp;
  let taken: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    taken = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** Makes the next `times` profile-ID draws answer the existing user's ID; later draws are random again. */
  function drawTakenProfileId(times: number): jest.SpyInstance {
    const spy = jest.spyOn(crypto, 'randomInt');
    for (let draw = 0; draw < times; draw++) {
      spy.mockImplementationOnce(() => Number(taken.user.profileId));
    }
    return spy;
  }

  const profileIdDraws = (spy: jest.SpyInstance) =>
    spy.mock.calls.filter((args) => args[0] === 0 && args[1] === 10 ** LIMITS.profileIdDigits).length;

  const createStaff = async (email: string) =>
    testApp.http
      .post('/api/users')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ email, password: FIXTURE_PASSWORD, role: 'MANAGER', firstName: 'Noa', lastName: 'Cohen' });

  const countRows = async (sql: string, parameters: unknown[]): Promise<number> =>
    Number((await testApp.dataSource.query(sql, parameters))[0].count);

  it('refuses staff addresses a mail library would read as someone else', async () => {
    for (const email of ['zz2<victim@example.com', '"@x.y', '.a@b.c']) {
      const refused = await createStaff(email);
      expect(refused.status).toBe(400);
      expect(refused.body.details.fields).toEqual([{ field: 'email', error: 'error.validation.invalid.email' }]);
    }
    expect(
      await countRows(`SELECT count(*) FROM users WHERE email = ANY($1)`, [
        ['zz2<victim@example.com', '"@x.y', '.a@b.c'],
      ]),
    ).toBe(0);
  });

  it('draws a new profile ID when the one drawn is taken, and keeps only the successful attempt', async () => {
    const email = uniqueEmail('retry');
    const admin = await adminToken(testApp);
    const spy = drawTakenProfileId(PROFILE_ID_ATTEMPTS - 1);

    const created = await createStaff(email);

    expect(profileIdDraws(spy)).toBe(PROFILE_ID_ATTEMPTS);
    spy.mockRestore();
    expect(created.status).toBe(201);
    const user = created.body as User;
    expect(user.profileId).toMatch(/^\d{8}$/);
    expect(user.profileId).not.toBe(taken.user.profileId);
    expect(await countRows(`SELECT count(*) FROM events WHERE stream_id = $1`, [`user-${user.userUuid}`])).toBe(1);
    expect(await countRows(`SELECT count(*) FROM credentials WHERE user_uuid = $1`, [user.userUuid])).toBe(1);
    expect((await signInResponse(testApp, email, FIXTURE_PASSWORD)).body.userUuid).toBe(user.userUuid);
    const listed = await testApp.http.get(`/api/users/${user.userUuid}`).set('Authorization', `Bearer ${admin}`);
    expect(listed.body.profileId).toBe(user.profileId);
  });

  it('retries a sign-up too, mailing the one confirmation link that was kept', async () => {
    const email = uniqueEmail('signup-retry');
    const spy = drawTakenProfileId(2);

    const signUp = await testApp.http
      .post('/api/auth/signup')
      .send({ email, password: FIXTURE_PASSWORD, firstName: 'Dana', lastName: 'Levi', termsAccepted: true });

    expect(profileIdDraws(spy)).toBe(3);
    spy.mockRestore();
    expect(signUp.status).toBe(201);
    expect(signUp.body.profileId).not.toBe(taken.user.profileId);
    const mail = await testApp.mailbox.waitFor(email);
    // The failed attempts appended nothing, so one event asked for one mail, and its link holds the one token.
    expect(await countRows(`SELECT count(*) FROM identity_tokens WHERE user_uuid = $1`, [signUp.body.userUuid])).toBe(
      1,
    );
    expect(await countRows(`SELECT count(*) FROM mail_outbox WHERE recipient = $1`, [email])).toBe(1);
    const token = /\/confirmation-token\/([\w-]+)/.exec(mail.text)?.[1];
    expect((await testApp.http.get('/api/confirmation-token').query({ token })).body).toEqual({ status: 'ACTIVE' });
  });

  it(`gives up after ${PROFILE_ID_ATTEMPTS} taken IDs without writing anything`, async () => {
    const email = uniqueEmail('exhausted');
    const spy = drawTakenProfileId(PROFILE_ID_ATTEMPTS);

    const refused = await createStaff(email);

    expect(profileIdDraws(spy)).toBe(PROFILE_ID_ATTEMPTS);
    spy.mockRestore();
    expect(refused.status).toBe(500);
    expect(refused.body.error).toBe('error.internal.server.error');
    expect(await countRows(`SELECT count(*) FROM users WHERE lower(email) = lower($1)`, [email])).toBe(0);
    // Nothing half-made blocks the address: the next attempt, with fresh numbers, creates the account.
    expect((await createStaff(email)).status).toBe(201);
  });

  describe('stored passwords', () => {
    const storedHash = async (userUuid: string): Promise<string> =>
      (await testApp.dataSource.query(`SELECT password_hash FROM credentials WHERE user_uuid = $1`, [userUuid]))[0]
        .password_hash;

    it('are argon2id hashes, salted per account, on sign-up, staff creation, change and staff reset', async () => {
      const client = await createActiveUser(testApp);
      const manager = await createActiveUser(testApp, { role: 'MANAGER' });
      const first = await storedHash(client.userUuid);
      for (const hash of [first, await storedHash(manager.userUuid)]) {
        // PHC string: algorithm, version, cost parameters, salt, hash.
        expect(hash).toMatch(/^\$argon2id\$v=19\$[mtp]=\d+,[mtp]=\d+,[mtp]=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
        expect(hash).not.toContain(FIXTURE_PASSWORD);
      }
      // The same password hashes differently for two accounts: each hash has its own salt.
      expect(first).not.toBe(await storedHash(manager.userUuid));

      const changed = await testApp.http
        .put('/api/password')
        .set('Authorization', `Bearer ${client.accessToken}`)
        .send({ oldPassword: FIXTURE_PASSWORD, password: 'Changed-Pass-2!', confirmPassword: 'Changed-Pass-2!' });
      expect(changed.status).toBe(204);
      const afterChange = await storedHash(client.userUuid);
      expect(afterChange).toMatch(/^\$argon2id\$/);
      expect(afterChange).not.toBe(first);

      const setByStaff = await testApp.http
        .put(`/api/password/users/${client.userUuid}`)
        .set('Authorization', `Bearer ${await adminToken(testApp)}`)
        .send({ password: 'Staff-Set-Pass-3!' });
      expect(setByStaff.status).toBe(204);
      const afterStaff = await storedHash(client.userUuid);
      expect(afterStaff).toMatch(/^\$argon2id\$/);
      expect(afterStaff).not.toBe(afterChange);
    });
  });
});
