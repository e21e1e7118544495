import type { AuditLog, Page, TwoFactorActivation, TwoFactorEnrolment, User } from '@kupa/proto';
import { generateSync } from 'otplib';
import { AdminAccounts } from '../../index';
import { ManualClock } from '../../../../platform/clock';
import {
  type ActiveUser,
  adminToken,
  createActiveUser,
  FIXTURE_PASSWORD,
  signUpAndConfirm,
  uniqueEmail,
} from '../../../../test-support/identity-fixtures';
import { manualPayment } from '../../../../test-support/ledger-query-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

/** A real authenticator: otplib itself, computing the code for the secret the API gave at the app's clock. */
function codeAt(secret: string, at: Date): string {
  return generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

function refreshCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  return ([] as string[])
    .concat((response.headers['set-cookie'] as string[] | undefined) ?? [])
    .find((cookie) => cookie.startsWith('kupa_refresh='));
}

describe('two-factor sign-in for staff', () => {
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signIn = (email: string, password: string, otp?: string) =>
    testApp.http.post('/api/auth/signin').send(otp === undefined ? { email, password } : { email, password, otp });

  /** Enrols and activates through the API as the signed-in staff member; answers the secret and recovery codes. */
  async function enrol(staff: ActiveUser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const started = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${staff.accessToken}`);
    expect(started.status).toBe(201);
    const { secret } = started.body as TwoFactorEnrolment;
    const activated = await testApp.http
      .post('/api/auth/two-factor/activation')
      .set('Authorization', `Bearer ${staff.accessToken}`)
      .send({ code: codeAt(secret, clock.now()) });
    expect(activated.status).toBe(200);
    // The activation ended the password-only session; the staff member signs in again with the next code.
    clock.advanceMs(30_000);
    const signedIn = await signIn(staff.email, staff.password, codeAt(secret, clock.now()));
    expect(signedIn.status).toBe(200);
    staff.accessToken = signedIn.body.accessToken as string;
    return { secret, recoveryCodes: (activated.body as TwoFactorActivation).recoveryCodes };
  }

  async function auditEventTypes(targetId: string): Promise<string[]> {
    const response = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ targetAndParentIds: [targetId], size: 100 });
    expect(response.status).toBe(200);
    return (response.body as Page<AuditLog>).content.map((entry) => entry.eventType);
  }

  it('enrols with a QR code, then asks for a fresh code at sign-in and refuses replayed and stale ones', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const started = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(started.status).toBe(201);
    const enrolment = started.body as TwoFactorEnrolment;
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Kupa:/);
    expect(enrolment.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const [stored] = await testApp.dataSource.query(
      `SELECT secret_ciphertext, status FROM two_factor_secrets WHERE user_uuid = $1`,
      [manager.userUuid],
    );
    expect(stored.status).toBe('PENDING');
    expect(stored.secret_ciphertext).not.toContain(enrolment.secret);

    // A pending enrolment changes nothing at sign-in yet, and a wrong first code activates nothing.
    const wrongFirst = await testApp.http
      .post('/api/auth/two-factor/activation')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ code: String((Number(codeAt(enrolment.secret, clock.now())) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrongFirst.status).toBe(400);
    expect(wrongFirst.body.error).toBe('error.otp.invalid');

    const firstCode = codeAt(enrolment.secret, clock.now());
    const activated = await testApp.http
      .post('/api/auth/two-factor/activation')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ code: firstCode });
    expect(activated.status).toBe(200);
    const { recoveryCodes } = activated.body as TwoFactorActivation;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const hashes: Array<{ code_hash: string }> = await testApp.dataSource.query(
      `SELECT code_hash FROM two_factor_recovery_codes WHERE user_uuid = $1`,
      [manager.userUuid],
    );
    expect(hashes).toHaveLength(10);
    for (const { code_hash } of hashes) expect(recoveryCodes).not.toContain(code_hash);
    // Turning it on ends the sessions opened with the password alone; the activating session's access token was
    // signed before, so it is refused too (a console refreshes once and carries on).
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${manager.accessToken}`);
    expect(me.status).toBe(401);

    // The events say that it was turned on, never with what.
    const events: Array<{ type: string; data: unknown }> = await testApp.dataSource.query(
      `SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [`user-${manager.userUuid}`],
    );
    expect(events.map((event) => event.type)).toContain('UserTwoFactorEnabled');
    const history = JSON.stringify(events);
    expect(history).not.toContain(enrolment.secret);
    for (const code of recoveryCodes) expect(history).not.toContain(code);
    expect(await auditEventTypes(manager.userUuid)).toContain('UserTwoFactorEnabled');

    // The password alone no longer opens a session.
    const withoutCode = await signIn(manager.email, manager.password);
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body.error).toBe('error.otp.required');
    expect(withoutCode.body.accessToken).toBeUndefined();
    expect(refreshCookieOf(withoutCode)).toBeUndefined();

    // The activation code's time-step is spent: the same code cannot sign in.
    const replayedFirst = await signIn(manager.email, manager.password, firstCode);
    expect(replayedFirst.status).toBe(400);
    expect(replayedFirst.body.error).toBe('error.otp.invalid');

    clock.advanceMs(30_000);
    const code = codeAt(enrolment.secret, clock.now());
    const withCode = await signIn(manager.email, manager.password, code);
    expect(withCode.status).toBe(200);
    expect(withCode.body.userUuid).toBe(manager.userUuid);
    expect(refreshCookieOf(withCode)).toBeDefined();
    const meWithCode = await testApp.http
      .get('/api/users/me')
      .set('Authorization', `Bearer ${withCode.body.accessToken}`);
    expect(meWithCode.body.twoFactorEnabled).toBe(true);

    const replayed = await signIn(manager.email, manager.password, code);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe('error.otp.invalid');
    expect(refreshCookieOf(replayed)).toBeUndefined();

    // A code the authenticator showed two minutes ago is stale, though it was never used.
    const shownEarlier = codeAt(enrolment.secret, clock.now());
    clock.advanceMs(2 * 60_000);
    expect(codeAt(enrolment.secret, clock.now())).not.toBe(shownEarlier);
    const stale = await signIn(manager.email, manager.password, shownEarlier);
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe('error.otp.invalid');

    // A recovery code works once, written as people copy it (spaces, capitals).
    const recovery = recoveryCodes[3];
    const withRecovery = await signIn(manager.email, manager.password, ` ${recovery.toUpperCase()} `);
    expect(withRecovery.status).toBe(200);
    const recoveryAgain = await signIn(manager.email, manager.password, recovery);
    expect(recoveryAgain.status).toBe(400);
    expect(recoveryAgain.body.error).toBe('error.otp.invalid');
  });

  it('refuses a second enrolment while it is on, and lets the owner turn it off with a code only', async () => {
    const admin = await createActiveUser(testApp, { role: 'ADMIN' });
    const { secret, recoveryCodes } = await enrol(admin);
    const again = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${admin.accessToken}`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('error.otp.already.enabled');

    const wrong = await testApp.http
      .post('/api/auth/two-factor/deactivation')
      .set('Authorization', `Bearer ${admin.accessToken}`)
      .send({ code: 'abcd-efgh-jkmn-pqrs' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('error.otp.invalid');

    clock.advanceMs(30_000);
    const disabled = await testApp.http
      .post('/api/auth/two-factor/deactivation')
      .set('Authorization', `Bearer ${admin.accessToken}`)
      .send({ code: codeAt(secret, clock.now()) });
    expect(disabled.status).toBe(204);
    expect(await auditEventTypes(admin.userUuid)).toContain('UserTwoFactorDisabled');
    expect((await signIn(admin.email, admin.password)).status).toBe(200);
    // Its recovery codes went with it; a code sent to an account without two-factor sign-in is not looked at.
    expect((await signIn(admin.email, admin.password, recoveryCodes[0])).status).toBe(200);
    const rows = await testApp.dataSource.query(`SELECT 1 FROM two_factor_recovery_codes WHERE user_uuid = $1`, [
      admin.userUuid,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('lets an admin reset another staff member’s, logged in the activity log, and nobody their own', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const otherManager = await createActiveUser(testApp, { role: 'MANAGER' });
    await enrol(manager);
    expect((await signIn(manager.email, manager.password)).body.error).toBe('error.otp.required');

    const byManager = await testApp.http
      .delete(`/api/users/${manager.userUuid}/two-factor`)
      .set('Authorization', `Bearer ${otherManager.accessToken}`);
    expect(byManager.status).toBe(403);

    const admin = await adminToken(testApp);
    const adminUuid = (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${admin}`)).body.userUuid;
    const own = await testApp.http.delete(`/api/users/${adminUuid}/two-factor`).set('Authorization', `Bearer ${admin}`);
    expect(own.status).toBe(403);
    expect(own.body.error).toBe('error.access.forbidden');

    const reset = await testApp.http
      .delete(`/api/users/${manager.userUuid}/two-factor`)
      .set('Authorization', `Bearer ${admin}`);
    expect(reset.status).toBe(204);
    expect(await auditEventTypes(manager.userUuid)).toContain('UserTwoFactorReset');
    const read = await testApp.http.get(`/api/users/${manager.userUuid}`).set('Authorization', `Bearer ${admin}`);
    expect(read.body.twoFactorEnabled).toBe(false);

    const signedIn = await signIn(manager.email, manager.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.userUuid).toBe(manager.userUuid);
  });

  it('counts wrong codes as failed sign-ins: the rate limit stops code guessing like password guessing', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const { secret } = await enrol(manager);
    const right = codeAt(secret, clock.now());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    // Asking for the code is no failure: it gives its place back.
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await signIn(manager.email, manager.password)).body.error).toBe('error.otp.required');
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++)
      statuses.push((await signIn(manager.email, manager.password, wrong)).status);
    expect(statuses).toEqual(Array(10).fill(400));
    clock.advanceMs(30_000);
    const limited = await signIn(manager.email, manager.password, codeAt(secret, clock.now()));
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('error.rate.limited');
  });

  it('keeps the enrolment calls to a live token', async () => {
    expect((await testApp.http.post('/api/auth/two-factor/enrolment')).status).toBe(401);
    const forged = await testApp.http.post('/api/auth/two-factor/enrolment').set('Authorization', 'Bearer not.a.token');
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe('error.token.invalid');
  });

  describe('for clients and ambassadors, with step-up (ADR 0098)', () => {
    const transfer = (from: ActiveUser, recipient: string, amount: number, otpCode?: string) =>
      testApp.http
        .post('/api/payments/transfer')
        .set('Authorization', `Bearer ${from.accessToken}`)
        .send(otpCode === undefined ? { recipient, amount } : { recipient, amount, otpCode });
    const balanceOf = async (user: ActiveUser): Promise<number> =>
      ((await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`)).body as User)
        .balance;
    /** A code the authenticator shows now, after the step the last accepted code belongs to. */
    const nextCode = (secret: string): string => {
      clock.advanceMs(30_000);
      return codeAt(secret, clock.now());
    };
    const wrongCodeFor = (secret: string): string =>
      String((Number(codeAt(secret, clock.now())) + 1) % 1_000_000).padStart(6, '0');

    it('lets a client and an ambassador enrol and then sign in with a code only', async () => {
      const client = await createActiveUser(testApp);
      const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
      for (const user of [client, ambassador]) {
        await enrol(user);
        const withoutCode = await signIn(user.email, user.password);
        expect(withoutCode.status).toBe(401);
        expect(withoutCode.body.error).toBe('error.otp.required');
        const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`);
        expect(me.body.twoFactorEnabled).toBe(true);
      }
    });

    it('refuses a transfer without a code, with a wrong or a reused one, and takes a fresh or a recovery code once', async () => {
      const client = await createActiveUser(testApp);
      const recipient = await createActiveUser(testApp);
      const { secret, recoveryCodes } = await enrol(client);
      await manualPayment(testApp, await adminToken(testApp), client.userUuid, 50, 'step-up fixture');

      const withoutCode = await transfer(client, recipient.email, 5);
      expect(withoutCode.status).toBe(403);
      expect(withoutCode.body.error).toBe('error.otp.step.up.required');
      // The gate speaks before the recipient is judged: without a code, no answer tells whether an account exists.
      for (const unknown of ['nobody-here@kupa.test', client.email]) {
        const gated = await transfer(client, unknown, 5);
        expect([gated.status, gated.body.error]).toEqual([403, 'error.otp.step.up.required']);
      }
      const wrong = await transfer(client, recipient.email, 5, wrongCodeFor(secret));
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('error.otp.invalid');
      // The code that signed in (enrol's last step) is spent already.
      const signInCode = await transfer(client, recipient.email, 5, codeAt(secret, clock.now()));
      expect(signInCode.status).toBe(400);
      expect(signInCode.body.error).toBe('error.otp.reused');
      expect(await balanceOf(client)).toBe(50);

      const fresh = nextCode(secret);
      expect((await transfer(client, recipient.email, 5, fresh)).status).toBe(201);
      const replayed = await transfer(client, recipient.email, 5, fresh);
      expect(replayed.status).toBe(400);
      expect(replayed.body.error).toBe('error.otp.reused');

      const recovery = recoveryCodes[0];
      expect((await transfer(client, recipient.email, 5, recovery.toUpperCase())).status).toBe(201);
      const recoveryAgain = await transfer(client, recipient.email, 5, recovery);
      expect(recoveryAgain.status).toBe(400);
      expect(recoveryAgain.body.error).toBe('error.otp.reused');
      expect(await balanceOf(client)).toBe(40);
      expect(await balanceOf(recipient)).toBe(10);

      // Without two-factor sign-in nothing is asked, and a code sent along is not looked at.
      await manualPayment(testApp, await adminToken(testApp), recipient.userUuid, 1, 'step-up fixture');
      expect((await transfer(recipient, client.email, 1)).status).toBe(201);
      expect((await transfer(recipient, client.email, 1, '000000')).status).toBe(201);
    });

    it('stops step-up guessing after five wrong or reused codes, a right code included, across the step-up calls', async () => {
      const client = await createActiveUser(testApp);
      const recipient = await createActiveUser(testApp);
      const { secret } = await enrol(client);
      await manualPayment(testApp, await adminToken(testApp), client.userUuid, 10, 'step-up fixture');
      const wrong = wrongCodeFor(secret);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt++)
        statuses.push((await transfer(client, recipient.email, 1, wrong)).status);
      // A missing code is no guess: it counts nothing.
      expect((await transfer(client, recipient.email, 1)).status).toBe(403);
      for (let attempt = 0; attempt < 2; attempt++) {
        const turnOff = await testApp.http
          .post('/api/auth/two-factor/deactivation')
          .set('Authorization', `Bearer ${client.accessToken}`)
          .send({ code: wrong });
        statuses.push(turnOff.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400]);
      const limited = await transfer(client, recipient.email, 1, nextCode(secret));
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('error.rate.limited');
      expect(limited.body.details.retryAfterSeconds).toBeGreaterThan(0);
      // The window ends; the next fresh code moves the money.
      clock.advanceMs(15 * 60_000);
      expect((await transfer(client, recipient.email, 1, codeAt(secret, clock.now()))).status).toBe(201);
    });

    it('asks a code for a password change and for turning two-factor off', async () => {
      const client = await createActiveUser(testApp);
      const { secret } = await enrol(client);
      const newPassword = `${client.password}-2`;
      const change = (otpCode?: string) =>
        testApp.http
          .put('/api/password')
          .set('Authorization', `Bearer ${client.accessToken}`)
          .send({ oldPassword: client.password, password: newPassword, confirmPassword: newPassword, otpCode });
      const withoutCode = await change();
      expect(withoutCode.status).toBe(403);
      expect(withoutCode.body.error).toBe('error.otp.step.up.required');
      expect((await change(wrongCodeFor(secret))).body.error).toBe('error.otp.invalid');
      expect((await change(nextCode(secret))).status).toBe(204);
      client.password = newPassword;
      // The change signed the old access token out; the client signs in again, which spends that step's code.
      const signedIn = await signIn(client.email, client.password, nextCode(secret));
      expect(signedIn.status).toBe(200);
      client.accessToken = signedIn.body.accessToken as string;

      const turnOff = (code: string) =>
        testApp.http
          .post('/api/auth/two-factor/deactivation')
          .set('Authorization', `Bearer ${client.accessToken}`)
          .send({ code });
      const reused = await turnOff(codeAt(secret, clock.now()));
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('error.otp.reused');
      expect((await turnOff(nextCode(secret))).status).toBe(204);
      expect((await signIn(client.email, client.password)).status).toBe(200);
      expect(await auditEventTypes(client.userUuid)).toContain('UserTwoFactorDisabled');
    });

    it('asks a code for a change of e-mail: none, wrong and reused are refused, a fresh one sends the link', async () => {
      const client = await createActiveUser(testApp);
      const { secret } = await enrol(client);
      const newEmail = uniqueEmail('step-up-moved');
      const ask = (otpCode?: string) =>
        testApp.http
          .post('/api/email')
          .set('Authorization', `Bearer ${client.accessToken}`)
          .send({ newEmail, currentPassword: client.password, otpCode });
      const withoutCode = await ask();
      expect(withoutCode.status).toBe(403);
      expect(withoutCode.body.error).toBe('error.otp.step.up.required');
      const wrong = await ask(wrongCodeFor(secret));
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe('error.otp.invalid');
      // The code of the step the sign-in already spent.
      const reused = await ask(codeAt(secret, clock.now()));
      expect(reused.status).toBe(400);
      expect(reused.body.error).toBe('error.otp.reused');
      // A wrong password is refused before the code is looked at, so it spends nothing.
      const wrongPassword = await testApp.http
        .post('/api/email')
        .set('Authorization', `Bearer ${client.accessToken}`)
        .send({ newEmail, currentPassword: 'Not-It-123!', otpCode: wrongCodeFor(secret) });
      expect(wrongPassword.body.error).toBe('error.password.current.incorrect');
      expect(testApp.mailbox.messages.some((mail) => mail.to.includes(newEmail))).toBe(false);

      expect((await ask(nextCode(secret))).status).toBe(204);
      const mail = await testApp.mailbox.waitFor(newEmail, (received) => received.text.includes('/email-change/'));
      const token = mail.text.match(/\/email-change\/([A-Za-z0-9_-]+)/)?.[1];
      expect((await testApp.http.put('/api/email/token').send({ token })).status).toBe(200);
      // Two-factor sign-in stays on for the account under its new address.
      const byNewAddress = await signIn(newEmail, client.password);
      expect(byNewAddress.body.error).toBe('error.otp.required');
      expect((await signIn(newEmail, client.password, nextCode(secret))).status).toBe(200);
      expect(await auditEventTypes(client.userUuid)).toContain('UserEmailChanged');
    });

    it('refuses to enrol through a staff member’s view-as token of the client', async () => {
      const client = await createActiveUser(testApp);
      const manager = await createActiveUser(testApp, { role: 'MANAGER' });
      const opened = await testApp.http
        .post(`/api/users/${client.userUuid}/view-as`)
        .set('Authorization', `Bearer ${manager.accessToken}`);
      expect(opened.status).toBe(201);
      const viewToken = opened.body.accessToken as string;
      for (const path of ['enrolment', 'activation']) {
        const refused = await testApp.http
          .post(`/api/auth/two-factor/${path}`)
          .set('Authorization', `Bearer ${viewToken}`)
          .send({ code: '123456' });
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('error.view.as.read.only');
      }
      const rows = await testApp.dataSource.query(`SELECT 1 FROM two_factor_secrets WHERE user_uuid = $1`, [
        client.userUuid,
      ]);
      expect(rows).toHaveLength(0);
    });

    it('shows staff whether a client has it, and lets an admin (only) reset it, logged and mailed to the client', async () => {
      const client = await createActiveUser(testApp);
      const manager = await createActiveUser(testApp, { role: 'MANAGER' });
      await enrol(client);
      const admin = await adminToken(testApp);
      const seen = await testApp.http.get(`/api/users/${client.userUuid}`).set('Authorization', `Bearer ${admin}`);
      expect(seen.body.twoFactorEnabled).toBe(true);
      const seenByManager = await testApp.http
        .get(`/api/users/${client.userUuid}`)
        .set('Authorization', `Bearer ${manager.accessToken}`);
      expect(seenByManager.body.twoFactorEnabled).toBe(true);

      const byManager = await testApp.http
        .delete(`/api/users/${client.userUuid}/two-factor`)
        .set('Authorization', `Bearer ${manager.accessToken}`);
      expect(byManager.status).toBe(403);
      const byClient = await testApp.http
        .delete(`/api/users/${client.userUuid}/two-factor`)
        .set('Authorization', `Bearer ${client.accessToken}`);
      expect(byClient.status).toBe(403);

      const reset = await testApp.http
        .delete(`/api/users/${client.userUuid}/two-factor`)
        .set('Authorization', `Bearer ${admin}`);
      expect(reset.status).toBe(204);
      expect(await auditEventTypes(client.userUuid)).toContain('UserTwoFactorReset');
      const read = await testApp.http.get(`/api/users/${client.userUuid}`).set('Authorization', `Bearer ${admin}`);
      expect(read.body.twoFactorEnabled).toBe(false);
      // Every session of the client ended; the password alone signs in again.
      expect(
        (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${client.accessToken}`)).status,
      ).toBe(401);
      expect((await signIn(client.email, client.password)).status).toBe(200);
      const mail = await testApp.mailbox.waitFor(client.email, (received) =>
        /two-factor|דו-שלבי/.test(received.subject),
      );
      expect(mail.text).toContain('/my-profile');
    });
  });
});

describe('two-factor sign-in required for staff (STAFF_2FA_REQUIRED)', () => {
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ clock, env: { STAFF_2FA_REQUIRED: '1' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('sends staff without it to enrolment with a token that opens nothing else, then signs them in with a code', async () => {
    const email = uniqueEmail('manager');
    await testApp.app
      .get(AdminAccounts)
      .ensureIfMissing({ email, password: FIXTURE_PASSWORD, role: 'MANAGER', firstName: 'Noa', lastName: 'Cohen' });

    const first = await testApp.http.post('/api/auth/signin').send({ email, password: FIXTURE_PASSWORD });
    expect(first.status).toBe(401);
    expect(first.body.error).toBe('error.otp.initialization.required');
    expect(first.body.details.expiresInSeconds).toBe(600);
    expect(refreshCookieOf(first)).toBeUndefined();
    const enrolmentToken: string = first.body.details.enrolmentToken;

    // The enrolment token is no session.
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${enrolmentToken}`);
    expect(me.status).toBe(401);

    const started = await testApp.http
      .post('/api/auth/two-factor/enrolment')
      .set('Authorization', `Bearer ${enrolmentToken}`);
    expect(started.status).toBe(201);
    const { secret } = started.body as TwoFactorEnrolment;
    const activated = await testApp.http
      .post('/api/auth/two-factor/activation')
      .set('Authorization', `Bearer ${enrolmentToken}`)
      .send({ code: codeAt(secret, clock.now()) });
    expect(activated.status).toBe(200);
    expect((activated.body as TwoFactorActivation).recoveryCodes).toHaveLength(10);

    const withoutCode = await testApp.http.post('/api/auth/signin').send({ email, password: FIXTURE_PASSWORD });
    expect(withoutCode.body.error).toBe('error.otp.required');
    clock.advanceMs(30_000);
    const signedIn = await testApp.http
      .post('/api/auth/signin')
      .send({ email, password: FIXTURE_PASSWORD, otp: codeAt(secret, clock.now()) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.userRole).toBe('MANAGER');
  });

  it('asks nothing more of clients', async () => {
    const client = await signUpAndConfirm(testApp);
    const signedIn = await testApp.http
      .post('/api/auth/signin')
      .send({ email: client.email, password: client.password });
    expect(signedIn.status).toBe(200);
  });
});
