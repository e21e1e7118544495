import { startTestApp, type TestApp } from './test-support/test-app';
import { FIXTURE_PASSWORD, uniqueEmail } from './test-support/identity-fixtures';

/**
 * `TRUST_PROXY` decides whose `X-Forwarded-For` names the client (docs/adr/0037-deployment.md): the address the
 * rate limits count and the events' metadata record. supertest connects from the loopback address.
 */
describe.each([
  { trustProxy: '', honoured: false, why: 'unset: no proxy is trusted' },
  { trustProxy: '10.0.0.0/8', honoured: false, why: 'a subnet the peer is not in' },
  { trustProxy: 'loopback', honoured: true, why: 'the loopback range, the peer’s' },
  { trustProxy: '1', honoured: true, why: 'one hop' },
])('TRUST_PROXY=$trustProxy ($why)', ({ trustProxy, honoured }) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: { TRUST_PROXY: trustProxy, RATE_LIMIT_SIGNUPS_PER_ADDRESS: '1/1h' },
      backgroundWork: false,
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signUpFrom = (forwardedFor: string, email: string) =>
    testApp.http.post('/api/auth/signup').set('X-Forwarded-For', forwardedFor).send({
      email,
      password: FIXTURE_PASSWORD,
      firstName: 'Dana',
      lastName: 'Levi',
      termsAccepted: true,
    });

  it(`${honoured ? 'honours' : 'ignores'} X-Forwarded-For for the rate limits and the recorded address`, async () => {
    expect((await signUpFrom('198.51.100.1', uniqueEmail('first'))).status).toBe(201);
    // A second address: a new client when the header counts, the same (the peer) when it does not.
    const second = await signUpFrom('198.51.100.2', uniqueEmail('second'));
    expect(second.status).toBe(honoured ? 201 : 429);
    const recorded = await testApp.dataSource.query<{ ip: string }[]>(
      `SELECT DISTINCT metadata->>'ip' AS ip FROM events WHERE metadata->>'ip' IS NOT NULL ORDER BY 1`,
    );
    const addresses = recorded.map((row) => row.ip);
    if (honoured) {
      expect(addresses).toEqual(['198.51.100.1', '198.51.100.2']);
    } else {
      expect(addresses).toHaveLength(1);
      expect(addresses[0]).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    }
  });
});
