import type { AuditLog, Page } from '@kupa/proto';
import { Mailbox, type ReceivedMail } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  adminToken,
  createActiveUser,
  signIn,
  signInResponse,
  uniqueEmail,
} from '../../../../test-support/identity-fixtures';

describe('password changes', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const change = (token: string, body: Record<string, unknown>) =>
    testApp.http.put('/api/password').set('Authorization', `Bearer ${token}`).send(body);
  const me = (token: string) => testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`);
  const refresh = (cookie: string) => testApp.http.post('/api/auth/token/refresh').set('Cookie', cookie);
  /** Two sessions of one user, as two browsers would hold them: an access token and a refresh cookie each. */
  const twoSessions = async (email: string, password: string) => {
    const first = await signInResponse(testApp, email, password);
    const second = await signInResponse(testApp, email, password);
    return [
      { accessToken: first.body.accessToken, refreshCookie: first.refreshCookie },
      { accessToken: second.body.accessToken, refreshCookie: second.refreshCookie },
    ];
  };

  it('changes the own password when the current one is right', async () => {
    const user = await createActiveUser(testApp);
    const wrongCurrent = await change(user.accessToken, {
      oldPassword: 'Not-It-123!',
      password: 'Brand-New-9!',
      confirmPassword: 'Brand-New-9!',
    });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.error).toBe('error.password.current.incorrect');

    const same = await change(user.accessToken, {
      oldPassword: user.password,
      password: user.password,
      confirmPassword: user.password,
    });
    expect(same.status).toBe(400);
    expect(same.body.details.fields).toContainEqual({
      field: 'password',
      error: 'error.validation.password.same.as.old',
    });

    const mismatch = await change(user.accessToken, {
      oldPassword: user.password,
      password: 'Brand-New-9!',
      confirmPassword: 'Brand-New-8!',
    });
    expect(mismatch.body.details.fields).toContainEqual({
      field: 'confirmPassword',
      error: 'error.validation.passwords.do.not.match',
    });

    const weak = await change(user.accessToken, {
      oldPassword: user.password,
      password: 'alllowercase1!',
      confirmPassword: 'alllowercase1!',
    });
    expect(weak.body.details.fields).toContainEqual({
      field: 'password',
      error: 'error.validation.password.rules',
      params: { length: 8 },
    });

    expect(
      (
        await change(user.accessToken, {
          oldPassword: user.password,
          password: 'Brand-New-9!',
          confirmPassword: 'Brand-New-9!',
        })
      ).status,
    ).toBe(204);
    expect(
      (await testApp.http.post('/api/auth/signin').send({ email: user.email, password: user.password })).status,
    ).toBe(401);
    expect(await signIn(testApp, user.email, 'Brand-New-9!')).toEqual(expect.any(String));
  });

  it('ends every other session of the user, keeping the one that changed the password', async () => {
    const user = await createActiveUser(testApp);
    const [changer, other] = await twoSessions(user.email, user.password);
    expect((await me(other.accessToken)).status).toBe(200);

    const changed = await change(changer.accessToken, {
      oldPassword: user.password,
      password: 'Brand-New-9!',
      confirmPassword: 'Brand-New-9!',
    });
    expect(changed.status).toBe(204);

    // The other session: its live access token is refused at once, and it cannot refresh.
    const otherNext = await me(other.accessToken);
    expect(otherNext.status).toBe(401);
    expect(otherNext.body.error).toBe('error.session.expired');
    expect((await refresh(other.refreshCookie)).status).toBe(401);
    // The fixture's own sign-in is a third session and ends too.
    expect((await me(user.accessToken)).status).toBe(401);

    // The session that changed the password: its access token was signed before the change and is refused, but
    // its refresh cookie still works and signs a token that is accepted.
    expect((await me(changer.accessToken)).status).toBe(401);
    const refreshed = await refresh(changer.refreshCookie);
    expect(refreshed.status).toBe(200);
    expect((await me(refreshed.body.accessToken)).status).toBe(200);

    // A new sign-in with the new password is unaffected by the change before it.
    expect((await me(await signIn(testApp, user.email, 'Brand-New-9!'))).status).toBe(200);
  });

  it('refuses a refresh token and an access token of an older session version even if no revocation reached them', async () => {
    // What a refresh that rotated at the very moment of a password change leaves behind: a live successor token of
    // the old version that the revocation statement did not see.
    const user = await createActiveUser(testApp);
    const [session] = await twoSessions(user.email, user.password);
    await testApp.dataSource.query(
      `UPDATE credentials SET session_version = session_version + 1 WHERE user_uuid = $1`,
      [user.userUuid],
    );
    const [{ live }] = await testApp.dataSource.query(
      `SELECT count(*)::int AS live FROM refresh_tokens WHERE user_uuid = $1 AND revoked_at IS NULL`,
      [user.userUuid],
    );
    expect(live).toBeGreaterThan(0);
    expect((await refresh(session.refreshCookie)).status).toBe(401);
    expect((await me(session.accessToken)).status).toBe(401);
  });

  it('ends every session of the user when staff set the password', async () => {
    const client = await createActiveUser(testApp);
    const sessions = await twoSessions(client.email, client.password);
    const set = await testApp.http
      .put(`/api/password/users/${client.userUuid}`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ password: 'Set-By-Staff-2!' });
    expect(set.status).toBe(204);
    for (const session of sessions) {
      expect((await me(session.accessToken)).status).toBe(401);
      expect((await refresh(session.refreshCookie)).status).toBe(401);
    }
    // The staff member's own session is not the client's and carries on.
    expect((await me(await adminToken(testApp))).status).toBe(200);
  });

  it('lets staff set a client’s password, but not a client set anyone’s', async () => {
    const client = await createActiveUser(testApp);
    const other = await createActiveUser(testApp);
    const byClient = await testApp.http
      .put(`/api/password/users/${other.userUuid}`)
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ password: 'Set-By-Staff-1!' });
    expect(byClient.status).toBe(403);
    expect(byClient.body.error).toBe('error.access.forbidden');

    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const set = await testApp.http
      .put(`/api/password/users/${client.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ password: 'Set-By-Staff-1!' });
    expect(set.status).toBe(204);
    expect(await signIn(testApp, client.email, 'Set-By-Staff-1!')).toEqual(expect.any(String));

    const admin = await createActiveUser(testApp, { role: 'ADMIN' });
    const onAdmin = await testApp.http
      .put(`/api/password/users/${admin.userUuid}`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ password: 'Set-By-Staff-1!' });
    expect(onAdmin.status).toBe(403);

    const missing = await testApp.http
      .put('/api/password/users/00000000-0000-4000-8000-000000000000')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ password: 'Set-By-Staff-1!' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('error.user.not.found');
  });

  describe('changes of e-mail (ADR 0100)', () => {
    const askEmailChange = (token: string, body: Record<string, unknown>) =>
      testApp.http.post('/api/email').set('Authorization', `Bearer ${token}`).send(body);
    const confirmEmailChange = (token: string) => testApp.http.put('/api/email/token').send({ token });
    const linkTokenOf = (mail: ReceivedMail) =>
      Mailbox.link(mail, 'http://kupa.test/email-change/').split('/').pop() ?? '';
    const linkMailTo = (address: string) =>
      testApp.mailbox.waitFor(address, (received) => received.text.includes('/email-change/'));

    it('asks for the current password and a free, valid address that is not the current one', async () => {
      const user = await createActiveUser(testApp);
      const other = await createActiveUser(testApp);
      const newEmail = uniqueEmail('moved');

      const wrongPassword = await askEmailChange(user.accessToken, { newEmail, currentPassword: 'Not-It-123!' });
      expect(wrongPassword.status).toBe(400);
      expect(wrongPassword.body.error).toBe('error.password.current.incorrect');

      const taken = await askEmailChange(user.accessToken, { newEmail: other.email, currentPassword: user.password });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe('error.login.already.in.use');

      const same = await askEmailChange(user.accessToken, { newEmail: user.email, currentPassword: user.password });
      expect(same.status).toBe(409);
      expect(same.body.error).toBe('error.login.already.in.use');

      const invalid = await askEmailChange(user.accessToken, {
        newEmail: 'not an address',
        currentPassword: user.password,
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.details.fields).toContainEqual(expect.objectContaining({ field: 'newEmail' }));

      // None of the refusals sent a link anywhere or changed the account.
      expect(testApp.mailbox.messages.some((mail) => mail.to.includes(newEmail))).toBe(false);
      expect((await me(user.accessToken)).body.email).toBe(user.email);
    });

    it('mails a link to the new address and a notice to the old one; the link moves the account once', async () => {
      const user = await createActiveUser(testApp);
      const [other] = await twoSessions(user.email, user.password);
      const newEmail = uniqueEmail('moved');

      const asked = await askEmailChange(user.accessToken, {
        newEmail: `  ${newEmail.toUpperCase()} `,
        currentPassword: user.password,
        language: 'en',
      });
      expect(asked.status).toBe(204);
      // Nothing changes yet: the account still signs in with its old address.
      expect((await me(user.accessToken)).body.email).toBe(user.email);

      const linkMail = await linkMailTo(newEmail);
      expect(linkMail.subject).toBe('Confirm your new Kupa e-mail address');
      const notice = await testApp.mailbox.waitFor(user.email, (received) => received.text.includes(newEmail));
      expect(notice.subject).toBe('A change of your Kupa e-mail address was asked for');
      expect(notice.text).not.toContain('/email-change/');
      const token = linkTokenOf(linkMail);

      const confirmed = await confirmEmailChange(token);
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({ email: newEmail });
      const again = await confirmEmailChange(token);
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('error.confirmation.token.invalid');

      // Every session ended; the new address signs in, the old one no longer does.
      expect((await me(user.accessToken)).status).toBe(401);
      expect((await refresh(other.refreshCookie)).status).toBe(401);
      const byOld = await testApp.http.post('/api/auth/signin').send({ email: user.email, password: user.password });
      expect(byOld.status).toBe(401);
      const signedIn = await signIn(testApp, newEmail, user.password);
      expect((await me(signedIn)).body.email).toBe(newEmail);

      // The old address is told the change is done; the activity log tells staff the address history.
      const done = await testApp.mailbox.waitFor(user.email, (received) => /was changed|שונתה/.test(received.subject));
      expect(done.text).toContain(newEmail);
      const log = await testApp.http
        .post('/api/audit-logs/search')
        .set('Authorization', `Bearer ${await adminToken(testApp)}`)
        .send({ targetAndParentIds: [user.userUuid], size: 100 });
      const entries = (log.body as Page<AuditLog>).content;
      expect(entries.map((entry) => entry.eventType)).toEqual(
        expect.arrayContaining(['UserEmailChangeRequested', 'UserEmailChanged']),
      );
      const changedEntry = entries.find((entry) => entry.eventType === 'UserEmailChanged');
      expect(JSON.stringify(changedEntry)).toContain(user.email);
      expect(JSON.stringify(changedEntry)).toContain(newEmail);
    });

    it('refuses a link whose address another account took meanwhile, and one a password change retired', async () => {
      const user = await createActiveUser(testApp);
      const wanted = uniqueEmail('wanted');
      expect(
        (await askEmailChange(user.accessToken, { newEmail: wanted, currentPassword: user.password })).status,
      ).toBe(204);
      const token = linkTokenOf(await linkMailTo(wanted));
      // Someone signs up with the address before the owner opens the link.
      await createActiveUser(testApp, { email: wanted });
      const taken = await confirmEmailChange(token);
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe('error.email.change.address.taken');

      const later = uniqueEmail('later');
      expect((await askEmailChange(user.accessToken, { newEmail: later, currentPassword: user.password })).status).toBe(
        204,
      );
      const laterToken = linkTokenOf(await linkMailTo(later));
      const changed = await change(user.accessToken, {
        oldPassword: user.password,
        password: 'Brand-New-9!',
        confirmPassword: 'Brand-New-9!',
      });
      expect(changed.status).toBe(204);
      const retired = await confirmEmailChange(laterToken);
      expect(retired.status).toBe(400);
      expect(retired.body.error).toBe('error.confirmation.token.invalid');
      expect(await signIn(testApp, user.email, 'Brand-New-9!')).toEqual(expect.any(String));
    });

    it('limits the asks of one account, from whatever address, and no other account with it', async () => {
      const user = await createActiveUser(testApp);
      const other = await createActiveUser(testApp);
      const newEmail = uniqueEmail('bombed');
      // The installation's mail allowance, 10 per 15 minutes: asks that mail nobody count too.
      for (let ask = 1; ask <= 10; ask += 1) {
        const refused = await askEmailChange(user.accessToken, { newEmail, currentPassword: 'Not-It-123!' }).set(
          'X-Forwarded-For',
          `10.9.0.${ask}`,
        );
        expect(refused.body.error).toBe('error.password.current.incorrect');
      }
      const limited = await askEmailChange(user.accessToken, { newEmail, currentPassword: user.password }).set(
        'X-Forwarded-For',
        '10.9.1.1',
      );
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('error.rate.limited');
      expect(limited.headers['retry-after']).toEqual(expect.any(String));
      expect(testApp.mailbox.messages.some((mail) => mail.to.includes(newEmail))).toBe(false);
      const otherAsk = await askEmailChange(other.accessToken, {
        newEmail: uniqueEmail('not-limited'),
        currentPassword: other.password,
      });
      expect(otherAsk.status).toBe(204);
    });

    it('lets staff change their own address the same way', async () => {
      const manager = await createActiveUser(testApp, { role: 'MANAGER' });
      const newEmail = uniqueEmail('staff-moved');
      const asked = await askEmailChange(manager.accessToken, { newEmail, currentPassword: manager.password });
      expect(asked.status).toBe(204);
      expect((await confirmEmailChange(linkTokenOf(await linkMailTo(newEmail)))).status).toBe(200);
      expect(await signIn(testApp, newEmail, manager.password)).toEqual(expect.any(String));
    });
  });
});
