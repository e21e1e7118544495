import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminToken, createActiveUser } from './test-support/identity-fixtures';
import { startTestApp, type TestApp } from './test-support/test-app';

describe('security headers', () => {
  let testApp: TestApp;
  let uiRoot: string;

  beforeAll(async () => {
    // Two stand-in UI builds, each an index.html that names its app, served the way `npm start` serves the real ones.
    uiRoot = mkdtempSync(join(tmpdir(), 'kupa-ui-'));
    const ui = { adminUiDir: join(uiRoot, 'admin'), clientUiDir: join(uiRoot, 'client') };
    for (const [name, directory] of Object.entries({ admin: ui.adminUiDir, client: ui.clientUiDir })) {
      mkdirSync(directory);
      writeFileSync(join(directory, 'index.html'), `<!doctype html><title>${name}</title>`);
    }
    testApp = await startTestApp({ ui });
  });

  afterAll(async () => {
    await testApp.close();
    rmSync(uiRoot, { recursive: true, force: true });
  });

  const policyOf = (header: string | undefined): Map<string, string> =>
    new Map(
      (header ?? '')
        .split(';')
        .map((directive) => directive.trim())
        .filter((directive) => directive.length > 0)
        .map((directive) => {
          const [name, ...sources] = directive.split(/\s+/);
          return [name, sources.join(' ')] as const;
        }),
    );

  it.each([
    ['an API route', '/api/common/app/version', 200, /json/],
    ['the client index', '/', 200, /html/],
    ['a client route reloaded', '/payments', 200, /html/],
    ['the admin index', '/admin/', 200, /html/],
    ['an unknown API path', '/api/no-such-route', 404, /json/],
    ['the OpenAPI page', '/api/docs/', 200, /html/],
  ])('sends them on %s', async (_name, path, status, contentType) => {
    // Unchecked against the OpenAPI document: an unknown API path is outside it on purpose.
    const response = await testApp.rawHttp.get(path);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(contentType);
    const policy = policyOf(response.headers['content-security-policy']);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(policy.get('img-src')).toBe("'self' data:");
    expect(policy.get('connect-src')).toBe("'self'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    // A plain-http install must not have its own assets upgraded to https.
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('keeps every API answer out of caches: tokens, the enrolment secret, searches, profiles and errors', async () => {
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    const admin = await adminToken(testApp);
    const answers = {
      signIn: await testApp.http.post('/api/auth/signin').send({ email: manager.email, password: manager.password }),
      enrolment: await testApp.http
        .post('/api/auth/two-factor/enrolment')
        .set('Authorization', `Bearer ${manager.accessToken}`),
      paymentSearch: await testApp.http.post('/api/payments/search').set('Authorization', `Bearer ${admin}`).send({}),
      profile: await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${manager.accessToken}`),
      signedOut: await testApp.http.get('/api/users/me'),
      // Unchecked against the OpenAPI document: an unknown path and a broken body are outside it on purpose.
      unknown: await testApp.rawHttp.get('/api/no-such-route'),
      brokenJson: await testApp.rawHttp
        .post('/api/auth/signin')
        .set('Content-Type', 'application/json')
        .send('{"email":'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({
      signIn: 200,
      enrolment: 201,
      paymentSearch: 200,
      profile: 200,
      signedOut: 401,
      unknown: 404,
      brokenJson: 400,
    });
    for (const [name, answer] of Object.entries(answers))
      expect({ name, cacheControl: answer.headers['cache-control'] }).toEqual({ name, cacheControl: 'no-store' });
  });

  it("leaves the UIs' caching alone", async () => {
    expect((await testApp.rawHttp.get('/')).headers['cache-control']).toBe('no-cache');
    expect((await testApp.rawHttp.get('/admin/')).headers['cache-control']).toBe('no-cache');
  });

  it('serves each app its own index', async () => {
    expect((await testApp.http.get('/')).text).toContain('<title>client</title>');
    expect((await testApp.http.get('/admin/users')).text).toContain('<title>admin</title>');
  });

  it('upgrades requests and asks for https only behind an https public address', async () => {
    const secure = await startTestApp({ env: { PUBLIC_URL: 'https://kupa.example' } });
    try {
      const response = await secure.http.get('/api/common/app/version');
      expect(policyOf(response.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await secure.close();
    }
  });
});
