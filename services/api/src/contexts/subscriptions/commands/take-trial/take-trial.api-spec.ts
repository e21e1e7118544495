import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { countRows, expectReadModelsToEqualReplay, uniqueLogin } from '../../subscriptions.fixtures';

describe('POST /subscriptions/users/{userUuid}/trial', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Commands alone: provisioning (a background loop) would activate subscriptions behind the spec's back.
    testApp = await startTestApp({ stoppedLoops: ['provisioning-jobs'] });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const take = (
    user: ActiveUser,
    userUuid = user.userUuid,
    body: object = { login: uniqueLogin(), password: 'pw12' },
  ) =>
    testApp.http
      .post(`/api/subscriptions/users/${userUuid}/trial`)
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send(body);
  const me = async (user: ActiveUser) =>
    (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`)).body;

  it('takes the free three-day trial once: PENDING, no package, no payment; the user is marked', async () => {
    const client = await createActiveUser(testApp);
    const login = uniqueLogin();
    const response = await take(client, client.userUuid, { login, password: 'pw12' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      type: 'TRIAL_FOR_NEW_USERS',
      status: 'PENDING',
      paymentPlan: null,
      price: 0,
      durationInMonth: 0,
      isRecurrent: false,
      login,
    });
    expect((await me(client)).trialUsed).toBe(true);
    expect(await countRows(testApp, 'SELECT count(*) FROM payments WHERE user_uuid = $1', [client.userUuid])).toBe(0);
    const second = await take(client);
    expect([second.status, second.body.error]).toEqual([409, 'error.trial.already.used']);
  });

  it('two trials at once: exactly one', async () => {
    const client = await createActiveUser(testApp);
    const answers = await Promise.all([take(client), take(client), take(client)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(await countRows(testApp, 'SELECT count(*) FROM subscriptions WHERE user_uuid = $1', [client.userUuid])).toBe(
      1,
    );
  });

  it('refuses the trial after it was declined, and declining after taking it', async () => {
    const decliner = await createActiveUser(testApp);
    await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${decliner.accessToken}`)
      .expect(204);
    const refused = await take(decliner);
    expect([refused.status, refused.body.error]).toEqual([409, 'error.trial.already.used']);
    const taker = await createActiveUser(testApp);
    expect((await take(taker)).status).toBe(201);
    const decline = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${taker.accessToken}`);
    expect([decline.status, decline.body.error]).toEqual([409, 'error.trial.already.used']);
  });

  it("answers 404 for another user's id, and leaves that user's trial alone", async () => {
    const [client, other] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    const response = await take(client, other.userUuid);
    expect([response.status, response.body.error]).toEqual([404, 'error.user.not.found']);
    expect((await me(other)).trialUsed).toBe(false);
  });

  it('cannot be cancelled nor change its login; its password may change', async () => {
    const client = await createActiveUser(testApp);
    const trial = (await take(client)).body;
    const auth = `Bearer ${client.accessToken}`;
    const cancel = await testApp.http.delete(`/api/subscriptions/${trial.id}`).set('Authorization', auth);
    expect([cancel.status, cancel.body.error]).toEqual([409, 'error.trial.cannot.be.cancelled']);
    const login = await testApp.http
      .put(`/api/subscriptions/${trial.id}/login`)
      .set('Authorization', auth)
      .send({ login: uniqueLogin() });
    expect([login.status, login.body.error]).toEqual([409, 'error.trial.login.cannot.be.changed']);
    const password = await testApp.http
      .put(`/api/subscriptions/${trial.id}/password`)
      .set('Authorization', auth)
      .send({ password: 'new pass' });
    expect(password.status).toBe(204);
  });

  it('is for clients and ambassadors, with valid credentials', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    expect((await take(manager)).status).toBe(403);
    const client = await createActiveUser(testApp);
    const bad = await take(client, client.userUuid, { login: 'x', password: 'é' });
    expect(bad.body.details.fields.map((field: { field: string }) => field.field)).toEqual(['login', 'password']);
    expect((await me(client)).trialUsed).toBe(false);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
