import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { HttpProvisioningProvider } from './http-provisioning-provider';
import { FixedProvisioningEndpoint, SANDBOX_STREAMING_PATH } from './provisioning-endpoint';
import {
  LoginTakenError,
  PermanentProvisioningError,
  ProvisioningProvider,
  TransientProvisioningError,
} from './provisioning-provider.port';

const TOKEN = 'test-provisioning-token';
/** The app's own calls get time to spare on a loaded machine; the timeout case uses a client of its own. */
const APP_TIMEOUT_MS = 5000;
const TIMEOUT_MS = 300;

/** The test app listens on a free loopback port already; this is its origin. */
async function listen(testApp: TestApp): Promise<string> {
  const { port } = testApp.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * The HTTP adapter against the built-in simulator over a real listening server: every operation of
 * docs/provisioning-api.md, its idempotency, the token, and each kind of failure the fault queue can make.
 */
describe('provisioning over HTTP against the built-in simulator', () => {
  let testApp: TestApp;
  let origin: string;
  let provider: ProvisioningProvider;
  let counter = 0;
  const login = (name: string) => `${name}.${++counter}.${Date.now() % 100000}`;
  const expiry = (days: number) => new Date(Date.UTC(2026, 5, 1) + days * 86_400_000);

  const queueFault = (operation: string, mode: string, times = 1) =>
    testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ operation, mode, times })
      .expect(200);

  beforeAll(async () => {
    testApp = await startTestApp({
      backgroundWork: false,
      env: { PROVISIONING_SIMULATOR_FAULTS: '1', PROVISIONING_TIMEOUT_MS: String(APP_TIMEOUT_MS) },
    });
    origin = await listen(testApp);
    // The app's own binding: the adapter pointed at this process's origin.
    provider = testApp.app.get(ProvisioningProvider, { strict: false });
  });

  afterEach(async () => {
    await testApp.http.delete('/api/sandbox/streaming/faults').set('Authorization', `Bearer ${TOKEN}`).expect(204);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('creates, reads, extends, renames, changes the password of and disables an account', async () => {
    const name = login('dana');
    expect(await provider.isLoginAvailable(name)).toBe(true);
    await expect(
      provider.createAccount({ login: name, password: 'secret one', expiresAt: expiry(30) }),
    ).resolves.toEqual({ login: name, expiresAt: expiry(30).toISOString(), status: 'ACTIVE' });
    expect(await provider.isLoginAvailable(name)).toBe(false);

    await expect(provider.extendAccount({ login: name, expiresAt: expiry(60) })).resolves.toMatchObject({
      expiresAt: expiry(60).toISOString(),
    });
    // Idempotent by the absolute expiry: the same call again changes nothing.
    await expect(provider.extendAccount({ login: name, expiresAt: expiry(60) })).resolves.toMatchObject({
      expiresAt: expiry(60).toISOString(),
    });

    const renamed = `${name}.new`;
    await expect(provider.changeLogin({ login: name, newLogin: renamed })).resolves.toMatchObject({ login: renamed });
    // A repeated rename (its first answer lost) finds the account under the new login.
    await expect(provider.changeLogin({ login: name, newLogin: renamed })).resolves.toMatchObject({ login: renamed });
    expect(await provider.isLoginAvailable(name)).toBe(true);

    await expect(provider.changePassword({ login: renamed, password: 'secret two' })).resolves.toBeUndefined();
    // The new password is the one the account holds: creating it again with it is the same account.
    await expect(
      provider.createAccount({ login: renamed, password: 'secret two', expiresAt: expiry(60) }),
    ).resolves.toMatchObject({ status: 'ACTIVE' });
    await expect(
      provider.createAccount({ login: renamed, password: 'secret one', expiresAt: expiry(60) }),
    ).rejects.toBeInstanceOf(LoginTakenError);

    await expect(provider.disableAccount({ login: renamed })).resolves.toMatchObject({ status: 'DISABLED' });
    await expect(provider.disableAccount({ login: renamed })).resolves.toMatchObject({ status: 'DISABLED' });
    expect(await provider.isLoginAvailable(renamed)).toBe(true);
    // A disabled account gives its login up to the next account created under it.
    await expect(
      provider.createAccount({ login: renamed, password: 'another', expiresAt: expiry(90) }),
    ).resolves.toEqual({ login: renamed, expiresAt: expiry(90).toISOString(), status: 'ACTIVE' });
  });

  it('answers a repeated creation 200 like the first, and a different one for a held login 409 (LoginTakenError)', async () => {
    const name = login('repeat');
    const body = { login: name, password: 'pass word', expiresAt: expiry(10).toISOString() };
    const send = () => testApp.http.post('/api/sandbox/streaming/v1/accounts').set('Authorization', `Bearer ${TOKEN}`);
    const first = await send().send(body).expect(200);
    const again = await send().send(body).expect(200);
    expect(again.body).toEqual(first.body);
    const taken = await send()
      .send({ ...body, expiresAt: expiry(11).toISOString() })
      .expect(409);
    expect(taken.body.error).toBe('error.directory.login.already.exists');
    const error = await provider
      .createAccount({ login: name, password: 'other', expiresAt: expiry(10) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LoginTakenError);
    expect((error as LoginTakenError).code).toBe('error.login.already.exists');
    expect(String((error as Error).message)).not.toContain('other');
  });

  it('refuses a rename onto an active account with LoginTakenError, and a missing account as permanent', async () => {
    const first = login('first');
    const second = login('second');
    await provider.createAccount({ login: first, password: 'p1p1', expiresAt: expiry(5) });
    await provider.createAccount({ login: second, password: 'p2p2', expiresAt: expiry(5) });
    await expect(provider.changeLogin({ login: first, newLogin: second })).rejects.toBeInstanceOf(LoginTakenError);
    await expect(provider.extendAccount({ login: login('nobody'), expiresAt: expiry(5) })).rejects.toBeInstanceOf(
      PermanentProvisioningError,
    );
  });

  it('turns queued faults into the port kinds: transient, permanent, timeout and login taken, in order', async () => {
    const name = login('faulty');
    const create = () => provider.createAccount({ login: name, password: 'pw12', expiresAt: expiry(3) });
    await queueFault('create', 'transient');
    await queueFault('create', 'permanent');
    const queue = await queueFault('create', 'login_taken');
    expect(queue.body).toEqual({
      faults: [
        { operation: 'create', mode: 'transient', remaining: 1 },
        { operation: 'create', mode: 'permanent', remaining: 1 },
        { operation: 'create', mode: 'login_taken', remaining: 1 },
      ],
    });
    await expect(create()).rejects.toBeInstanceOf(TransientProvisioningError);
    await expect(create()).rejects.toBeInstanceOf(PermanentProvisioningError);
    await expect(create()).rejects.toBeInstanceOf(LoginTakenError);
    await expect(create()).resolves.toMatchObject({ login: name });

    await queueFault('extend', 'timeout');
    const impatient = new HttpProvisioningProvider(
      new FixedProvisioningEndpoint(`${origin}${SANDBOX_STREAMING_PATH}`, TOKEN),
      { timeoutMs: TIMEOUT_MS },
    );
    const started = Date.now();
    const timedOut = await impatient
      .extendAccount({ login: name, expiresAt: expiry(4) })
      .catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(TransientProvisioningError);
    expect((timedOut as Error).message).toContain(`no answer within ${TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1000);
    await expect(provider.extendAccount({ login: name, expiresAt: expiry(4) })).resolves.toMatchObject({
      expiresAt: expiry(4).toISOString(),
    });

    await queueFault('lookup', 'transient', 2);
    await expect(provider.isLoginAvailable(name)).rejects.toBeInstanceOf(TransientProvisioningError);
    await expect(provider.isLoginAvailable(name)).rejects.toBeInstanceOf(TransientProvisioningError);
    expect(await provider.isLoginAvailable(name)).toBe(false);
  });

  it('requires the provisioning token: none, a wrong one or a Kupa session is refused with 401', async () => {
    const path = `/api/sandbox/streaming/v1/accounts/${login('nobody')}`;
    for (const header of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const call = testApp.http.get(path);
      const response = await (header ? call.set('Authorization', header) : call);
      expect([header, response.status, response.body.error]).toEqual([header, 401, 'error.token.invalid']);
    }
    await testApp.http.get(path).set('Authorization', `Bearer ${TOKEN}`).expect(404);
    const wrongToken = new HttpProvisioningProvider(
      new FixedProvisioningEndpoint(`${origin}${SANDBOX_STREAMING_PATH}`, 'wrong-token'),
      { timeoutMs: TIMEOUT_MS },
    );
    // A refused token is the operator's to fix: the job waits rather than failing the client's purchase.
    await expect(wrongToken.isLoginAvailable('someone')).rejects.toBeInstanceOf(TransientProvisioningError);
  });

  it('treats a refused connection as transient and an unreadable answer as permanent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new HttpProvisioningProvider(
      new FixedProvisioningEndpoint(`http://127.0.0.1:${closedPort}`, TOKEN),
      {
        timeoutMs: TIMEOUT_MS,
      },
    );
    const error = await refused.disableAccount({ login: 'someone' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransientProvisioningError);
    expect((error as Error).message).toMatch(/no connection/);

    // A service at the edge of the outside world that answers 200 with something that is not an account.
    const odd: Server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok": true');
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const unreadable = new HttpProvisioningProvider(
        new FixedProvisioningEndpoint(`http://127.0.0.1:${(odd.address() as AddressInfo).port}/`, TOKEN),
        { timeoutMs: TIMEOUT_MS },
      );
      await expect(unreadable.extendAccount({ login: 'someone', expiresAt: expiry(1) })).rejects.toBeInstanceOf(
        PermanentProvisioningError,
      );
    } finally {
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });
});

describe('the simulator without PROVISIONING_SIMULATOR_FAULTS, and when a real service is configured', () => {
  it('has no fault routes (404) without the flag, yet serves the accounts API', async () => {
    const testApp = await startTestApp({ backgroundWork: false, env: { PROVISIONING_SIMULATOR_FAULTS: '0' } });
    try {
      const fault = await testApp.http
        .put('/api/sandbox/streaming/faults')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send({ operation: 'create', mode: 'transient', times: 1 });
      expect([fault.status, fault.body.error]).toEqual([404, 'error.entity.not.found']);
      await testApp.http.delete('/api/sandbox/streaming/faults').set('Authorization', `Bearer ${TOKEN}`).expect(404);
      await testApp.http
        .post('/api/sandbox/streaming/v1/accounts')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send({ login: 'no.faults.here', password: 'pw12', expiresAt: '2026-07-01T00:00:00Z' })
        .expect(200);
    } finally {
      await testApp.close();
    }
  });

  it('serves nothing under /api/sandbox/streaming once PROVISIONING_URL names a real service', async () => {
    const testApp = await startTestApp({
      backgroundWork: false,
      env: { PROVISIONING_URL: 'http://127.0.0.1:9', PROVISIONING_SIMULATOR_FAULTS: '1' },
    });
    try {
      const lookup = await testApp.http
        .get('/api/sandbox/streaming/v1/accounts/some.login')
        .set('Authorization', `Bearer ${TOKEN}`);
      expect([lookup.status, lookup.body.error]).toEqual([404, 'error.entity.not.found']);
      await testApp.http
        .put('/api/sandbox/streaming/faults')
        .set('Authorization', `Bearer ${TOKEN}`)
        .send({ operation: 'create', mode: 'transient', times: 1 })
        .expect(404);
    } finally {
      await testApp.close();
    }
  });
});
