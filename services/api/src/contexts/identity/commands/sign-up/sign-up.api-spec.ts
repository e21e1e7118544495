import type { User } from '@kupa/proto';
import { Mailbox } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  adminToken,
  createActiveUser,
  FIXTURE_PASSWORD,
  uniqueEmail,
} from '../../../../test-support/identity-fixtures';

describe('sign-up and account confirmation', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signUp = (body: Record<string, unknown>) => testApp.http.post('/api/auth/signup').send(body);
  const validBody = (email: string) => ({
    email,
    password: FIXTURE_PASSWORD,
    firstName: 'דנה',
    lastName: 'לוי',
    termsAccepted: true,
  });

  it('signs up, mails a Hebrew link, confirms it, signs in and reads /users/me', async () => {
    const email = uniqueEmail('dana');
    const created = await signUp(validBody(email));
    expect(created.status).toBe(201);
    const user = created.body as User;
    expect(user).toMatchObject({
      email,
      firstName: 'דנה',
      lastName: 'לוי',
      fullName: 'דנה לוי',
      role: 'CLIENT',
      status: 'NON_VERIFIED',
      balance: 0,
      language: 'he',
    });
    expect(user.profileId).toMatch(/^\d{8}$/);
    expect(user.referrals.link).toBe(`http://kupa.test/sign-up?ref=${user.profileId}`);

    const refused = await testApp.http.post('/api/auth/signin').send({ email, password: FIXTURE_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('error.user.email.not.verified');

    const mail = await testApp.mailbox.waitFor(email);
    expect(mail.subject).toBe('אישור החשבון שלך בקופה');
    expect(mail.text).toContain('שלום דנה');
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toMatch(/<bdi dir="ltr">http:\/\/kupa\.test\/confirmation-token\/[\w-]+<\/bdi>/);
    const link = Mailbox.link(mail, 'http://kupa.test/confirmation-token/');
    const token = link.split('/').pop();

    const confirmed = await testApp.http.get('/api/confirmation-token').query({ token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ status: 'ACTIVE' });

    // The link opened a second time: not "invalid", but "already confirmed", so the person knows to sign in.
    const again = await testApp.http.get('/api/confirmation-token').query({ token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('error.account.already.active');

    const signedIn = await testApp.http
      .post('/api/auth/signin')
      .send({ email: email.toUpperCase(), password: FIXTURE_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ userUuid: user.userUuid, email, userRole: 'CLIENT' });
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${signedIn.body.accessToken}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userUuid: user.userUuid,
      status: 'ACTIVE',
      trialUsed: false,
      trialRejected: false,
    });
  });

  it('mails in English when the sign-up asks for English', async () => {
    const email = uniqueEmail('en');
    expect((await signUp({ ...validBody(email), firstName: 'John', lastName: 'Smith', language: 'en' })).status).toBe(
      201,
    );
    const mail = await testApp.mailbox.waitFor(email);
    expect(mail.subject).toBe('Confirm your Kupa account');
    expect(mail.text).toContain('Hello John,');
    expect(mail.text.split('\n').map((line) => line.trim())).toContainEqual(
      expect.stringMatching(/^http:\/\/kupa\.test\/confirmation-token\/[\w-]+$/),
    );
  });

  it('refuses an e-mail already in use, whatever its case', async () => {
    const email = uniqueEmail('twice');
    expect((await signUp(validBody(email))).status).toBe(201);
    const duplicate = await signUp(validBody(email.toUpperCase()));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toBe('error.login.already.in.use');
  });

  it('refuses unknown fields, broken rules and unaccepted terms with field codes', async () => {
    const unknown = await signUp({ ...validBody(uniqueEmail()), isAdmin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fields).toContainEqual({ field: 'isAdmin', error: 'error.validation.unknown.field' });

    const broken = await signUp({
      email: 'not-an-email',
      password: 'short',
      firstName: '1abc',
      lastName: 'Levi',
      termsAccepted: false,
      referralToken: 'abc',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('error.validation.failed');
    const fields = broken.body.details.fields as Array<{ field: string; error: string }>;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'email', error: 'error.validation.invalid.email' },
        { field: 'password', error: 'error.validation.password.rules', params: { length: 8 } },
        { field: 'firstName', error: 'error.validation.person.name' },
        { field: 'termsAccepted', error: 'error.validation.terms.not.accepted' },
        { field: 'referralToken', error: 'error.validation.ref.numeric' },
      ]),
    );
  });

  it('refuses addresses a mail library would read as someone else, and stores nothing', async () => {
    // Probed: nodemailer reads the first as victim@example.com, so the account's mail would go to someone else.
    for (const email of ['zz2<victim@example.com', '"@x.y', '.a@b.c']) {
      const refused = await signUp(validBody(email));
      expect(refused.status).toBe(400);
      expect(refused.body.details.fields).toEqual([{ field: 'email', error: 'error.validation.invalid.email' }]);
    }
    const stored = await testApp.dataSource.query(`SELECT count(*)::int AS count FROM users WHERE email = ANY($1)`, [
      ['zz2<victim@example.com', '"@x.y', '.a@b.c'],
    ]);
    expect(stored[0].count).toBe(0);
  });

  it('stores a known referrer and ignores an unknown one', async () => {
    const referrer = await createActiveUser(testApp);
    const referred = await signUp({ ...validBody(uniqueEmail('referred')), referralToken: referrer.user.profileId });
    expect(referred.status).toBe(201);
    const unknownReferrer = await signUp({
      ...validBody(uniqueEmail('stray')),
      referralToken: referrer.user.profileId === '00000000' ? '00000001' : '00000000',
    });
    expect(unknownReferrer.status).toBe(201);
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${referrer.accessToken}`);
    expect(me.body.referrals.totalReferrals).toBe(1);
  });

  it('links a referral only to an account older than the new one, so no one refers themselves and no chain loops', async () => {
    const first = await createActiveUser(testApp);
    const profileOf = async (email: string) =>
      (
        (await testApp.dataSource.query(
          'SELECT uuid, profile_id, referrer_profile_id, created_at FROM users WHERE email = $1',
          [email],
        )) as Array<{ uuid: string; profile_id: string; referrer_profile_id: string | null; created_at: Date }>
      )[0];
    const secondEmail = uniqueEmail('second');
    expect((await signUp({ ...validBody(secondEmail), referralToken: first.user.profileId })).status).toBe(201);
    const second = await profileOf(secondEmail);
    const thirdEmail = uniqueEmail('third');
    expect((await signUp({ ...validBody(thirdEmail), referralToken: second.profile_id })).status).toBe(201);
    const third = await profileOf(thirdEmail);
    const firstRow = await profileOf(first.email);

    // Each account names an older one, never itself: the new account's profile ID did not exist when it was named.
    expect([firstRow.referrer_profile_id, second.referrer_profile_id, third.referrer_profile_id]).toEqual([
      null,
      firstRow.profile_id,
      second.profile_id,
    ]);
    expect(second.profile_id).not.toBe(firstRow.profile_id);
    expect(third.profile_id).not.toBe(second.profile_id);
    expect(firstRow.created_at.getTime()).toBeLessThan(second.created_at.getTime());
    expect(second.created_at.getTime()).toBeLessThan(third.created_at.getTime());

    // Nothing sets a referrer after sign-up, so the oldest account can never be made to name the newest one.
    const admin = await adminToken(testApp);
    const relink = await testApp.http
      .put(`/api/users/${firstRow.uuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ referrerProfileId: third.profile_id });
    expect(relink.status).toBe(400);
    expect(relink.body.details.fields).toContainEqual({
      field: 'referrerProfileId',
      error: 'error.validation.unknown.field',
    });
    expect((await profileOf(first.email)).referrer_profile_id).toBeNull();
  });

  it('resends the confirmation mail without revealing which addresses are registered', async () => {
    const email = uniqueEmail('resend');
    await signUp(validBody(email));
    const first = await testApp.mailbox.waitFor(email);
    const resent = await testApp.http.post('/api/users/resend-signup-email').send({ email, language: 'en' });
    expect(resent.status).toBe(204);
    const second = await testApp.mailbox.waitFor(email, (mail) => mail !== first);
    expect(second.subject).toBe('Confirm your Kupa account');
    // Only the newest link works.
    const oldToken = Mailbox.link(first, 'http://kupa.test/confirmation-token/').split('/').pop();
    expect((await testApp.http.get('/api/confirmation-token').query({ token: oldToken })).status).toBe(400);
    const newToken = Mailbox.link(second, 'http://kupa.test/confirmation-token/').split('/').pop();
    expect((await testApp.http.get('/api/confirmation-token').query({ token: newToken })).status).toBe(200);

    // An active account and an unknown address answer alike, and neither gets a mail.
    const before = testApp.mailbox.messages.length;
    const active = await testApp.http.post('/api/users/resend-signup-email').send({ email });
    const unknown = await testApp.http.post('/api/users/resend-signup-email').send({ email: uniqueEmail('nobody') });
    for (const response of [active, unknown]) {
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
    }
    // A mail would have been sent by now: the pending account's resend above was delivered before its 204.
    expect(testApp.mailbox.messages.length).toBe(before);
  });

  it('answers a malformed or missing confirmation token with the catalogue code', async () => {
    const missing = await testApp.http.get('/api/confirmation-token');
    expect(missing.status).toBe(400);
    const forged = await testApp.http.get('/api/confirmation-token').query({ token: 'forged-token' });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('error.confirmation.token.invalid');
  });
});

describe('resending the confirmation mail under the mail rate limit', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('counts every resend from one address, whatever the address asked about, and then answers 429', async () => {
    const active = await createActiveUser(testApp);
    const asked = Array.from({ length: testApp.config.rateLimits.mailRequestsPerAddress.limit }, (_, index) =>
      index % 2 === 0 ? active.email : uniqueEmail('probe'),
    );
    for (const email of asked) {
      expect((await testApp.http.post('/api/users/resend-signup-email').send({ email })).status).toBe(204);
    }
    const limited = await testApp.http.post('/api/users/resend-signup-email').send({ email: uniqueEmail('probe') });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sign-up limit', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { RATE_LIMIT_SIGNUPS_PER_ADDRESS: '2/1h' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Supertest connects from the loopback address, which the app trusts to name the client in X-Forwarded-For. */
  const signUpFrom = (address: string, email: string) =>
    testApp.http.post('/api/auth/signup').set('X-Forwarded-For', address).send({
      email,
      password: FIXTURE_PASSWORD,
      firstName: 'Dana',
      lastName: 'Levi',
      termsAccepted: true,
    });

  it('counts every sign-up per address and answers 429 with Retry-After over the limit', async () => {
    expect((await signUpFrom('192.0.2.7', uniqueEmail('first'))).status).toBe(201);
    expect((await signUpFrom('192.0.2.7', 'not-an-email')).status).toBe(400);
    const limited = await signUpFrom('192.0.2.7', uniqueEmail('third'));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(59 * 60);
    expect((await signUpFrom('192.0.2.8', uniqueEmail('elsewhere'))).status).toBe(201);
  });
});
