import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { adminToken, createActiveUser, signIn } from '../../../../test-support/identity-fixtures';

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
});
