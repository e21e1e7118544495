import type { Plan, SignInResponse, Subscription, User } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { CashierSettings, IPN_SIGNATURE_HEADER, ipnSignature } from './platform/cashier';
import { eventually } from './platform/event-store/event-store.fixtures';
import { BOOTSTRAP_ADMIN, bootstrapAdminEnv, signInResponse, uniqueEmail } from './test-support/identity-fixtures';
import { Mailbox } from './test-support/mailbox';
import { sandboxAct, sandboxInvoiceId } from './test-support/sandbox-cashier';
import { startTestApp, type TestApp } from './test-support/test-app';

/** One parsed log line; every line the app writes must parse. */
interface LogLine {
  level: string;
  time: string;
  msg?: string;
  context?: string;
  requestId?: string;
  operation?: string;
  route?: string;
  req?: { method: string; path: string };
  res?: { statusCode: number };
  mail?: { to: string; subject: string; text: string };
  [field: string]: unknown;
}

const parsed = (testApp: TestApp): LogLine[] => testApp.logLines.map((line) => JSON.parse(line) as LogLine);

/** The `name=value` cookie a response sets under `name`. */
function cookieValue(headers: Record<string, unknown>, name: string): string {
  const cookie = ([] as string[])
    .concat((headers['set-cookie'] as string[] | undefined) ?? [])
    .find((value) => value.startsWith(`${name}=`));
  if (!cookie) throw new Error(`No ${name} cookie`);
  return cookie.split(';')[0].slice(name.length + 1);
}

/**
 * The logs (docs/adr/0031-health-metrics-logs.md): JSON lines, the request id on each line of a request, and no
 * password, token, key or signature ever, checked by running the flows that handle them with every log line kept.
 */
describe('logs with SMTP configured: a realistic flow leaves no secret in them', () => {
  let testApp: TestApp;
  /** Every secret the flow handles, by what it is. */
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    testApp = await startTestApp({ captureLogs: true, env: { LOG_LEVEL: 'verbose', ...bootstrapAdminEnv() } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('writes one JSON object per line, each with its level, time and message', () => {
    expect(testApp.logLines.length).toBeGreaterThan(0);
    for (const line of parsed(testApp)) {
      expect(typeof line.level).toBe('string');
      expect(new Date(line.time).toISOString()).toBe(line.time);
    }
    // Nest's own start-up lines come through the same logger.
    expect(parsed(testApp).some((line) => line.context === 'RoutesResolver')).toBe(true);
  });

  it('runs sign-up, sign-in, refresh, reset, a deposit, a purchase and a crypto IPN without logging a secret', async () => {
    const http = testApp.http;
    secrets.adminPassword = BOOTSTRAP_ADMIN.password;
    secrets.jwtSecret = testApp.config.jwtSecret;
    secrets.provisioningToken = testApp.config.provisioningToken;
    secrets.twoFactorKey = testApp.config.twoFactorKey;
    secrets.cashierApiKey = testApp.app.get(CashierSettings).apiKey;
    secrets.ipnSecret = testApp.app.get(CashierSettings).ipnSecret;

    const admin = await signInResponse(testApp, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    secrets.adminAccessToken = admin.body.accessToken;
    secrets.adminRefreshToken = admin.refreshCookie.split('=')[1];

    // Sign-up with a password, confirmed by the mailed token.
    const email = uniqueEmail('hygiene');
    secrets.signUpPassword = 'Signup-Secret-0031!';
    const signUp = await http.post('/api/auth/signup').send({
      email,
      password: secrets.signUpPassword,
      firstName: 'Tamar',
      lastName: 'Golan',
      termsAccepted: true,
      language: 'en',
    });
    expect(signUp.status).toBe(201);
    const userUuid = (signUp.body as User).userUuid;
    const confirmation = await testApp.mailbox.waitFor(email, (mail) => mail.text.includes('/confirmation-token/'));
    secrets.confirmationToken =
      Mailbox.link(confirmation, `${testApp.config.publicUrl}/confirmation-token/`).split('/').pop() ?? '';
    expect((await http.get('/api/confirmation-token').query({ token: secrets.confirmationToken })).status).toBe(200);

    // A wrong password, then sign-in and a refresh.
    secrets.wrongPassword = 'Wrong-Secret-0031!';
    expect((await http.post('/api/auth/signin').send({ email, password: secrets.wrongPassword })).status).toBe(401);
    const signedIn = await signInResponse(testApp, email, secrets.signUpPassword);
    secrets.accessToken = signedIn.body.accessToken;
    secrets.refreshToken = signedIn.refreshCookie.split('=')[1];
    const refreshed = await http.post('/api/auth/token/refresh').set('Cookie', signedIn.refreshCookie);
    expect(refreshed.status).toBe(200);
    secrets.refreshedAccessToken = (refreshed.body as { accessToken: string }).accessToken;
    secrets.rotatedRefreshToken = cookieValue(refreshed.headers, 'kupa_refresh');

    // Forgot and reset the password with the mailed token.
    expect((await http.post('/api/password/forgot').send({ email })).status).toBe(204);
    const resetMail = await testApp.mailbox.waitFor(email, (mail) => mail.text.includes('/set-password/'));
    secrets.resetToken = Mailbox.link(resetMail, `${testApp.config.publicUrl}/set-password/`).split('/').pop() ?? '';
    secrets.newPassword = 'Reset-Secret-0031!';
    const reset = await http
      .put('/api/password/token')
      .send({ token: secrets.resetToken, password: secrets.newPassword, confirmPassword: secrets.newPassword });
    expect(reset.status).toBe(204);
    const client = await signInResponse(testApp, email, secrets.newPassword);
    secrets.clientAccessToken = client.body.accessToken;
    secrets.clientRefreshToken = client.refreshCookie.split('=')[1];
    const bearer = `Bearer ${(client.body as SignInResponse).accessToken}`;

    // A manual deposit by staff, then a purchase with the streaming service's login password.
    const deposit = await http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin.body.accessToken}`)
      .send({ userUuid, amount: 20, action: 'DEPOSIT', comment: 'hygiene deposit' });
    expect(deposit.status).toBe(201);
    const plan = await http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin.body.accessToken}`)
      .send({
        name: `Hygiene ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      });
    expect(plan.status).toBe(201);
    secrets.streamingPassword = 'Streaming-Secret-0031';
    const bought = await http
      .post(`/api/subscriptions/balance/payment-plans/${(plan.body as Plan).id}`)
      .set('Authorization', bearer)
      .send({ login: `hyg${randomUUID().slice(0, 8)}`, password: secrets.streamingPassword });
    expect(bought.status).toBe(201);
    await eventually(
      () => http.get(`/api/subscriptions/${(bought.body as Subscription).id}`).set('Authorization', bearer),
      (response) => (response.body as Subscription).status === 'ACTIVE',
      'the subscription provisioned with its password',
    );

    // A crypto deposit: the sandbox pays and posts its signed IPN; the provider's payment is then posted again.
    const crypto = await http
      .post('/api/payments/crypto/deposit')
      .set('Authorization', bearer)
      .send({ amount: 15, method: 'CRYPTO_USDT_TRC20' });
    expect(crypto.status).toBe(201);
    const invoiceId = sandboxInvoiceId((crypto.body as { invoiceUrl: string }).invoiceUrl);
    const paid = await sandboxAct(testApp, invoiceId, 'pay');
    expect(paid.status).toBe(200);
    const settings = testApp.app.get(CashierSettings);
    const providerPayment = (await (
      await fetch(`${settings.apiBase()}/v1/payment/${(paid.body as { paymentId: string }).paymentId}`, {
        headers: { 'x-api-key': settings.apiKey },
      })
    ).json()) as Record<string, unknown>;
    secrets.ipnSignature = ipnSignature(providerPayment, settings.ipnSecret);
    const ipn = await http
      .post('/api/payments/crypto/ipn')
      .set(IPN_SIGNATURE_HEADER, secrets.ipnSignature)
      .send(providerPayment);
    expect(ipn.status).toBe(200);

    // Mails and provisioning ran in the background; let the last lines land.
    await eventually(
      async () =>
        Number((await testApp.dataSource.query('SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL'))[0].count),
      (unsent) => unsent === 0,
      'every mail sent',
    );

    const log = testApp.logLines.join('\n');
    for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThanOrEqual(8);
    const leaked = Object.entries(secrets)
      .filter(([, value]) => log.includes(value))
      .map(([name]) => name);
    expect(leaked).toEqual([]);
    // Nothing shaped like a JWT, and no mail body.
    expect(log).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./);
    expect(log).not.toContain('/confirmation-token/');
    expect(log).not.toContain('/set-password/');

    // The flow was logged: one line per request, by route, with the path but never the query string.
    const requests = parsed(testApp).filter(
      (line) => line.msg === 'request completed' || line.msg === 'request failed',
    );
    const routes = new Set(requests.map((line) => line.route));
    for (const route of [
      'POST /api/auth/signup',
      'GET /api/confirmation-token',
      'POST /api/auth/signin',
      'POST /api/auth/token/refresh',
      'PUT /api/password/token',
      'POST /api/payments',
      'POST /api/subscriptions/balance/payment-plans/:planId',
      'POST /api/payments/crypto/ipn',
    ])
      expect(routes).toContain(route);
    const confirmed = requests.find((line) => line.route === 'GET /api/confirmation-token');
    expect(confirmed?.req).toEqual({ method: 'GET', path: '/api/confirmation-token' });
    expect(requests.every((line) => typeof line.requestId === 'string' && typeof line.durationMs === 'number')).toBe(
      true,
    );
  });

  it('puts the request id on every line a request logs, and the loop name on background lines', async () => {
    const settings = testApp.app.get(CashierSettings);
    const unknownPayment = { payment_id: 9_999_999_031, payment_status: 'finished' };
    const response = await testApp.http
      .post('/api/payments/crypto/ipn')
      .set('X-Request-Id', 'ipn-unknown-0031')
      .set(IPN_SIGNATURE_HEADER, ipnSignature(unknownPayment, settings.ipnSecret))
      .send(unknownPayment);
    expect(response.status).toBe(404);
    const lines = parsed(testApp);
    // The cashier client's warning, logged deep inside the request, carries the request's id.
    const warning = lines.find((line) => line.context === 'CashierClient' && String(line.msg).includes('9999999031'));
    expect(warning?.requestId).toBe('ipn-unknown-0031');
    const ofRequest = lines.filter((line) => line.requestId === 'ipn-unknown-0031');
    // The provider's 404 is ours too (ADR 0059): a refusal, not a failure, so only the request's own line ends it.
    expect(ofRequest.map((line) => line.context ?? line.msg)).toEqual(['CashierClient', 'request completed']);
    expect(ofRequest[1]).toMatchObject({
      route: 'POST /api/payments/crypto/ipn',
      res: { statusCode: 404 },
    });
    // Nest's own lines and the processors' are outside any request.
    const mapped = lines.find((line) => line.context === 'RouterExplorer');
    expect(mapped?.requestId).toBeUndefined();
  });
});

describe('logs without SMTP_URL: mails, links included, are written to the log (development only)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ captureLogs: true, env: { SMTP_URL: '', LOG_LEVEL: 'log' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('says so at start, and logs the confirmation mail with a link that works', async () => {
    expect(
      parsed(testApp).some((line) => line.level === 'warn' && String(line.msg).startsWith('SMTP_URL is not set')),
    ).toBe(true);
    const email = uniqueEmail('devmail');
    const signUp = await testApp.http.post('/api/auth/signup').send({
      email,
      password: 'Dev-Mode-0031!',
      firstName: 'Dev',
      lastName: 'Mode',
      termsAccepted: true,
      language: 'en',
    });
    expect(signUp.status).toBe(201);
    const written = await eventually(
      async () => parsed(testApp).find((line) => line.mail?.to === email),
      (line) => line !== undefined,
      'the confirmation mail in the log',
    );
    expect(written).toMatchObject({ context: 'Mail', operation: 'loop mail-dispatcher' });
    const link = /http:\/\/kupa\.test\/confirmation-token\/(\S+)/.exec(written?.mail?.text ?? '');
    expect(link).not.toBeNull();
    const token = link?.[1] ?? '';
    expect((await testApp.http.get('/api/confirmation-token').query({ token })).status).toBe(200);
    // The mail's line is the only one that holds the token: the confirming request's line has no query string.
    expect(testApp.logLines.filter((line) => line.includes(token))).toHaveLength(1);
    expect(testApp.logLines.join('\n')).not.toContain('Dev-Mode-0031!');
  });
});
