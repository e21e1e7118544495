import type { Response } from 'supertest';
import {
  adminToken,
  createActiveUser,
  signInResponse,
  type ActiveUser,
} from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { ActorCache } from './actor-cache';

describe('the actor cache', () => {
  let testApp: TestApp;
  let cache: ActorCache;

  beforeAll(async () => {
    testApp = await startTestApp();
    cache = testApp.app.get(ActorCache);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const me = (user: ActiveUser) => testApp.http.get('/api/users/me').set('Authorization', `Bearer ${user.accessToken}`);

  async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`${what} within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** A user whose view the cache holds: it was read once while the cache listened. */
  async function cachedUser(): Promise<ActiveUser> {
    const user = await createActiveUser(testApp);
    await until('the cache listens', async () => (await me(user)).status === 200 && cache.trusted);
    expect((await me(user)).status).toBe(200);
    expect(cache.find(user.userUuid, performance.now())?.userUuid).toBe(user.userUuid);
    return user;
  }

  /** Writes behind the triggers' back, as a change the cache never hears of would. */
  async function silently(sql: string, parameters: unknown[]): Promise<void> {
    await testApp.dataSource.transaction(async (manager) => {
      await manager.query('ALTER TABLE users DISABLE TRIGGER users_actor_changed');
      await manager.query(sql, parameters);
      await manager.query('ALTER TABLE users ENABLE TRIGGER users_actor_changed');
    });
  }

  it('answers from memory: a change nobody announces is not seen', async () => {
    const user = await cachedUser();
    await silently(`UPDATE users SET status = 'BLOCKED' WHERE uuid = $1`, [user.userUuid]);
    expect((await me(user)).status).toBe(200);
    cache.forget(user.userUuid);
    expect((await me(user)).status).toBe(403);
  });

  it('lets a block made through this process bite on the very next request', async () => {
    const user = await cachedUser();
    const blocked = await testApp.http
      .put(`/api/users/${user.userUuid}/status`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ status: 'BLOCKED' });
    expect(blocked.status).toBe(200);
    const refused = await me(user);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('error.account.blocked');
  });

  it('lets a logout through this process end its access tokens on the very next request, unannounced', async () => {
    const user = await cachedUser();
    const session = await signInResponse(testApp, user.email, user.password);
    const sessionMe = () =>
      testApp.http.get('/api/users/me').set('Authorization', `Bearer ${session.body.accessToken}`);
    expect((await sessionMe()).status).toBe(200);
    expect(cache.find(user.userUuid, performance.now())?.endedSessionIds).toEqual([]);
    // No notification of the revocation: only the logout's own drop of the view can make the next request see it,
    // as it must whenever the notification arrives after that request (it did, about one run in eight under load).
    await testApp.dataSource.query('ALTER TABLE refresh_tokens DISABLE TRIGGER refresh_tokens_actor_changed');
    try {
      const loggedOut = await testApp.http.post('/api/auth/logout').set('Cookie', session.refreshCookie);
      expect(loggedOut.status).toBe(204);
      const refused = await sessionMe();
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('error.session.ended');
    } finally {
      await testApp.dataSource.query('ALTER TABLE refresh_tokens ENABLE TRIGGER refresh_tokens_actor_changed');
    }
    expect((await me(user)).status).toBe(200);
  });

  /**
   * Runs `change` while a test transaction holds the user's row, so that the change stops at its last write (the
   * users projection's), inside its transaction and after whatever it did before; then a request of the same user
   * reads the state still committed, as a concurrent one would, and the cache keeps it. Then the row is let go and
   * the change commits. `NO KEY UPDATE`: the foreign-key checks of the change's earlier writes pass. `triggers`
   * (`table trigger`) are off meanwhile: no notification of the change, so only this process's own drop can make
   * the next request see it, as it must whenever the notification arrives after that request.
   */
  async function racedByARead(
    user: ActiveUser,
    triggers: string[],
    change: () => Promise<Response>,
  ): Promise<Response> {
    for (const trigger of triggers)
      await testApp.dataSource.query(`ALTER TABLE ${trigger.replace(' ', ' DISABLE TRIGGER ')}`);
    const lock = testApp.dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM users WHERE uuid = $1 FOR NO KEY UPDATE', [user.userUuid]);
      const changing = change();
      await until('the change waits for the held row', async () => {
        const waiting: unknown[] = await testApp.dataSource.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE users%'`,
        );
        return waiting.length > 0;
      });
      expect((await me(user)).status).toBe(200);
      expect(cache.find(user.userUuid, performance.now())?.userUuid).toBe(user.userUuid);
      await lock.query('COMMIT');
      return await changing;
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      await lock.release();
      for (const trigger of triggers)
        await testApp.dataSource.query(`ALTER TABLE ${trigger.replace(' ', ' ENABLE TRIGGER ')}`);
    }
  }

  it('drops the view again when a password change commits, so a read that raced it does not outlive it', async () => {
    const user = await cachedUser();
    const other = await signInResponse(testApp, user.email, user.password);
    const changed = await racedByARead(
      user,
      ['credentials credentials_actor_changed', 'refresh_tokens refresh_tokens_actor_changed'],
      async () =>
        testApp.http
          .put('/api/password')
          .set('Authorization', `Bearer ${other.body.accessToken}`)
          .send({ oldPassword: user.password, password: 'Brand-New-9!', confirmPassword: 'Brand-New-9!' }),
    );
    expect(changed.status).toBe(204);
    // Committed and answered: the access token of the session the change ended stops at its very next request.
    expect((await me(user)).status).toBe(401);
  });

  it('drops the view again when a block commits, so a read that raced it does not outlive it', async () => {
    const user = await cachedUser();
    const admin = await adminToken(testApp);
    const blocked = await racedByARead(user, ['users users_actor_changed'], async () =>
      testApp.http
        .put(`/api/users/${user.userUuid}/status`)
        .set('Authorization', `Bearer ${admin}`)
        .send({ status: 'BLOCKED' }),
    );
    expect(blocked.status).toBe(200);
    const refused = await me(user);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('error.account.blocked');
  });

  it('hears a change another process commits, through the triggers’ notification', async () => {
    const user = await cachedUser();
    // Written straight to the table, as another API process's projection would: only the notification tells.
    await testApp.dataSource.query(`UPDATE users SET status = 'BLOCKED' WHERE uuid = $1`, [user.userUuid]);
    await until('the block bites', async () => (await me(user)).status === 403);
  });

  it('hears a session version moved on in credentials', async () => {
    const user = await cachedUser();
    await testApp.dataSource.query(
      `UPDATE credentials SET session_version = session_version + 1 WHERE user_uuid = $1`,
      [user.userUuid],
    );
    await until('the old token is refused', async () => (await me(user)).status === 401);
  });

  it('reads every request from the database while it cannot hear changes, and trusts itself again once it can', async () => {
    const user = await cachedUser();
    await testApp.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'kupa actor cache' AND datname = current_database()`,
    );
    await until('the cache stops trusting itself', () => !cache.trusted);
    expect(cache.find(user.userUuid, performance.now())).toBeNull();
    await silently(`UPDATE users SET status = 'BLOCKED' WHERE uuid = $1`, [user.userUuid]);
    expect((await me(user)).status).toBe(403);
    await until('the cache listens again', () => cache.trusted);
  });
});
