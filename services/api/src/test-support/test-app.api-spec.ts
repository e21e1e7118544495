import { createActiveUser } from './identity-fixtures';
import { startTestApp, type TestApp } from './test-app';

/**
 * Two applications in one process, as the specs of a second API process on the same database start them: each
 * authenticates with its own JWT strategy and database pool, so closing one leaves the other answering. (passport's
 * registry is process-wide: the guard once took whichever strategy was registered last, the closed one's.)
 */
describe('two test apps in one process', () => {
  let first: TestApp;

  beforeAll(async () => {
    first = await startTestApp();
  });

  afterAll(async () => {
    await first.close();
  });

  it('the first still answers signed-in requests once the second, on the same database, is closed', async () => {
    const before = await createActiveUser(first);
    const second = await startTestApp({ database: first.database, backgroundWork: false });
    const me = (app: TestApp) => app.http.get('/api/users/me').set('Authorization', `Bearer ${before.accessToken}`);
    expect((await me(second)).status).toBe(200);
    await second.app.close();
    await second.mailbox.stop();

    const after = await me(first);
    expect([after.status, after.body.email]).toEqual([200, before.email.toLowerCase()]);
    // A sign-up and a signed-in request after it: the pool and the guard are the first app's own.
    const another = await createActiveUser(first);
    expect((await first.http.get('/api/users/me').set('Authorization', `Bearer ${another.accessToken}`)).status).toBe(
      200,
    );
  });
});
