import { Mailbox } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { createActiveUser, signInResponse, uniqueEmail } from '../../../../test-support/identity-fixtures';

describe('forgot and reset password', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const forgot = (email: string, language?: string) =>
    testApp.http.post('/api/password/forgot').send(language ? { email, language } : { email });
  const tokenOf = (mail: Awaited<ReturnType<Mailbox['waitFor']>>) =>
    Mailbox.link(mail, 'http://kupa.test/set-password/').split('/').pop() ?? '';

  it('resets through the mailed link: the old password stops working and sessions end', async () => {
    const user = await createActiveUser(testApp, { language: 'en' });
    const { refreshCookie, body: session } = await signInResponse(testApp, user.email, user.password);
    expect((await forgot(user.email)).status).toBe(204);
    const mail = await testApp.mailbox.waitFor(user.email, (received) => received.text.includes('/set-password/'));
    expect(mail.subject).toBe('Reset your Kupa password');
    const token = tokenOf(mail);

    const mismatch = await testApp.http
      .put('/api/password/token')
      .send({ token, password: 'New-Secret-2!', confirmPassword: 'New-Secret-3!' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.details.fields).toContainEqual({
      field: 'confirmPassword',
      error: 'error.validation.passwords.do.not.match',
    });

    const reset = await testApp.http
      .put('/api/password/token')
      .send({ token, password: 'New-Secret-2!', confirmPassword: 'New-Secret-2!' });
    expect(reset.status).toBe(204);

    const old = await testApp.http.post('/api/auth/signin').send({ email: user.email, password: user.password });
    expect(old.status).toBe(401);
    expect(
      (await testApp.http.post('/api/auth/signin').send({ email: user.email, password: 'New-Secret-2!' })).status,
    ).toBe(200);
    expect((await testApp.http.post('/api/auth/token/refresh').set('Cookie', refreshCookie)).status).toBe(401);
    for (const accessToken of [session.accessToken, user.accessToken]) {
      const refused = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${accessToken}`);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('error.session.expired');
    }

    const reused = await testApp.http
      .put('/api/password/token')
      .send({ token, password: 'New-Secret-4!', confirmPassword: 'New-Secret-4!' });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('error.confirmation.token.invalid');
  });

  it('mails in Hebrew by default and expires the link after an hour', async () => {
    const user = await createActiveUser(testApp);
    await forgot(user.email);
    const mail = await testApp.mailbox.waitFor(user.email, (received) => received.text.includes('/set-password/'));
    expect(mail.subject).toBe('איפוס הסיסמה שלך בקופה');
    await testApp.dataSource.query(
      `UPDATE identity_tokens SET expires_at = now() - interval '1 second' WHERE user_uuid = $1 AND purpose = 'PASSWORD_RESET'`,
      [user.userUuid],
    );
    const expired = await testApp.http
      .put('/api/password/token')
      .send({ token: tokenOf(mail), password: 'New-Secret-2!', confirmPassword: 'New-Secret-2!' });
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('error.confirmation.token.invalid');
  });

  it('answers 204 for an unknown address without sending anything', async () => {
    const before = testApp.mailbox.messages.length;
    expect((await forgot(uniqueEmail('nobody'))).status).toBe(204);
    expect(testApp.mailbox.messages.length).toBe(before);
  });

  it('rate limits forgot-password per address with 429 error.rate.limited', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) statuses.push((await forgot(uniqueEmail('flood'))).status);
    expect(statuses).toContain(429);
    const limited = await forgot(uniqueEmail('flood'));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
  });
});
