import { ERROR_CATALOGUE } from '@kupa/proto';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { type ActiveUser, createActiveUser, signInResponse } from '../../test-support/identity-fixtures';

/** Routes that take no body refuse one like DTO routes refuse unknown fields (see `BodilessRouteInterceptor`). */
describe('bodies sent to routes that take none', () => {
  let testApp: TestApp;
  let client: ActiveUser;
  let manager: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    client = await createActiveUser(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const unknownField = (field: string) => ({
    status: 400,
    error: 'error.validation.failed',
    message: ERROR_CATALOGUE['error.validation.failed'].en,
    details: { fields: [{ field, error: 'error.validation.unknown.field' }] },
  });
  const me = async (user: ActiveUser) =>
    (await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`)).body;

  it('answers an unknown field exactly as a DTO route does, and runs nothing', async () => {
    const dtoRoute = await testApp.http
      .put(`/api/users/${client.userUuid}`)
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ firstName: 'Dana', lastName: 'Levi', unexpected: true });
    const bodiless = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ unexpected: true });

    expect(dtoRoute.body).toEqual(unknownField('unexpected'));
    expect(bodiless.body).toEqual(unknownField('unexpected'));
    expect((await me(client)).trialRejected).toBe(false);
  });

  it('names every unexpected field and refuses a JSON array as a whole', async () => {
    const fields = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ reason: 'no', again: 1 });
    expect(fields.status).toBe(400);
    expect(fields.body.details.fields.map((field: { field: string }) => field.field)).toEqual(['reason', 'again']);
    const array = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send([1]);
    expect(array.body).toEqual(unknownField('body'));
    expect((await me(client)).trialRejected).toBe(false);
  });

  it('lets the guards answer first: 401 for anonymous callers and 403 for staff', async () => {
    const anonymous = await testApp.http.put('/api/users/trial-reject').send({ unexpected: true });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'error.session.expired']);
    const staff = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ unexpected: true });
    expect([staff.status, staff.body.error]).toEqual([403, 'error.access.forbidden']);
  });

  it('does not rotate a refresh token or end a session when the call carries a body', async () => {
    const { refreshCookie } = await signInResponse(testApp, client.email, client.password);
    const refresh = await testApp.http.post('/api/auth/token/refresh').set('Cookie', refreshCookie).send({ a: 1 });
    expect(refresh.body).toEqual(unknownField('a'));
    expect(refresh.headers['set-cookie']).toBeUndefined();
    const logout = await testApp.http.post('/api/auth/logout').set('Cookie', refreshCookie).send({ everywhere: true });
    expect(logout.body).toEqual(unknownField('everywhere'));
    expect(logout.headers['set-cookie']).toBeUndefined();
    // The token was neither rotated nor revoked: it rotates now, which sets its successor.
    const next = await testApp.http.post('/api/auth/token/refresh').set('Cookie', refreshCookie);
    expect(next.status).toBe(200);
    expect(String(next.headers['set-cookie'])).toMatch(/^kupa_refresh=/);
  });

  it('keeps a note whose deletion carried a body', async () => {
    const note = await testApp.http
      .post(`/api/users/${client.userUuid}/notes`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ text: 'keep me' });
    const deletion = await testApp.http
      .delete(`/api/users/${client.userUuid}/notes/${note.body.id}`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ force: true });
    expect(deletion.body).toEqual(unknownField('force'));
    const notes = await testApp.http
      .get(`/api/users/${client.userUuid}/notes`)
      .set('Authorization', `Bearer ${manager.accessToken}`);
    expect(notes.body.map((listed: { id: string }) => listed.id)).toContain(note.body.id);
  });

  it('accepts no body and an empty JSON object', async () => {
    const other = await createActiveUser(testApp);
    const empty = await testApp.http
      .put('/api/users/trial-reject')
      .set('Authorization', `Bearer ${other.accessToken}`)
      .send({});
    expect(empty.status).toBe(204);
    expect((await me(other)).trialRejected).toBe(true);
    const none = await testApp.http.put('/api/users/trial-reject').set('Authorization', `Bearer ${other.accessToken}`);
    expect(none.status).toBe(204);
    expect((await testApp.http.post('/api/auth/logout').send({})).status).toBe(204);
  });
});
