import { SwaggerModule, DocumentBuilder } from '@nestjs/swagger';
import { createActiveUser, adminToken } from './test-support/identity-fixtures';
import {
  ACTORS,
  type ActorName,
  callAs,
  createMatrixPlan,
  type MatrixContext,
  ROUTE_MATRIX,
} from './test-support/route-matrix';
import { UNREACHABLE_STRIPE_ENV } from './test-support/fake-stripe';
import { eventually } from './test-support/eventually';
import { startTestApp, type TestApp } from './test-support/test-app';

describe('route × role matrix (docs/product.md, Permissions)', () => {
  let testApp: TestApp;
  const tokens = {} as Record<Exclude<ActorName, 'anonymous'>, string>;
  let context: MatrixContext;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { ...UNREACHABLE_STRIPE_ENV } });
    const client = await createActiveUser(testApp, { role: 'CLIENT' });
    const otherClient = await createActiveUser(testApp, { role: 'CLIENT' });
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const manager = await createActiveUser(testApp, { role: 'MANAGER' });
    tokens.client = client.accessToken;
    tokens.otherClient = otherClient.accessToken;
    tokens.ambassador = ambassador.accessToken;
    tokens.manager = manager.accessToken;
    tokens.admin = await adminToken(testApp);
    const note = await testApp.http
      .post(`/api/users/${client.userUuid}/notes`)
      .set('Authorization', `Bearer ${tokens.admin}`)
      .send({ text: 'matrix note' })
      .expect(201);
    const deposit = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${tokens.admin}`)
      .send({ userUuid: client.userUuid, amount: 10, action: 'DEPOSIT', comment: 'matrix deposit' })
      .expect(201);
    context = {
      clientUuid: client.userUuid,
      clientNoteId: note.body.id,
      clientPaymentId: deposit.body.paymentId,
      planId: await createMatrixPlan(testApp, tokens.admin),
      // The receipts processor issues the deposit's receipt a moment after the deposit commits.
      clientReceiptNumber: (
        await eventually(
          () => testApp.http.get('/api/receipts').set('Authorization', `Bearer ${tokens.client}`),
          (response) => response.status === 200 && response.body.items.length > 0,
          "the client's receipt",
        )
      ).body.items[0].number,
    };
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('has a row for every operation the API documents', () => {
    const document = SwaggerModule.createDocument(testApp.app, new DocumentBuilder().build());
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(ROUTE_MATRIX.map((row) => `${row.method.toUpperCase()} ${row.path}`));
    const missing = documented.filter((operation) => !covered.has(operation));
    expect(missing).toEqual([]);
    expect(documented.length).toBeGreaterThanOrEqual(ROUTE_MATRIX.length);
  });

  it('refuses a body on every operation that documents none, after the guards', async () => {
    const document = SwaggerModule.createDocument(testApp.app, new DocumentBuilder().build());
    const bodiless = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, { requestBody?: unknown }>)
        .filter(([method, operation]) => ['post', 'put', 'delete', 'patch'].includes(method) && !operation.requestBody)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(bodiless).toEqual(
      expect.arrayContaining(['PUT /api/users/trial-reject', 'POST /api/auth/logout', 'POST /api/auth/token/refresh']),
    );
    const answers: Record<string, string> = {};
    for (const operation of bodiless) {
      const row = ROUTE_MATRIX.find((candidate) => `${candidate.method.toUpperCase()} ${candidate.path}` === operation);
      if (!row) throw new Error(`No matrix row for ${operation}`);
      // The first caller the guards admit; a public route whose handler wants a cookie admits anyone.
      const actor = ACTORS.find((name) => ['pass', 400].includes(row.expect[name])) ?? 'anonymous';
      const token = actor === 'anonymous' ? null : tokens[actor];
      const response = await callAs(testApp, { ...row, body: { unexpected: true } }, token, context);
      answers[operation] = `${response.status} ${response.body?.error} ${JSON.stringify(response.body?.details)}`;
    }
    const refused = `400 error.validation.failed ${JSON.stringify({ fields: [{ field: 'unexpected', error: 'error.validation.unknown.field' }] })}`;
    expect(answers).toEqual(Object.fromEntries(bodiless.map((operation) => [operation, refused])));
  });

  for (const row of ROUTE_MATRIX) {
    it(`${row.method.toUpperCase()} ${row.path}`, async () => {
      const outcomes: Record<string, string> = {};
      const wanted: Record<string, string> = {};
      for (const actor of ACTORS) {
        const token = actor === 'anonymous' ? null : tokens[actor];
        const response = await callAs(testApp, row, token, context);
        const expectation = row.expect[actor];
        const unavailable =
          row.unavailableError !== undefined &&
          response.status === 503 &&
          response.body?.error === row.unavailableError;
        if (!unavailable) expect(response.status).toBeLessThan(500);
        if (expectation === 'pass') {
          const denied =
            response.status === 401 || response.status === 403 || (response.status === 404 && !row.passMayBe404);
          outcomes[actor] = denied ? `denied ${response.status} ${response.body?.error}` : 'pass';
          wanted[actor] = 'pass';
        } else {
          outcomes[actor] = String(response.status);
          wanted[actor] = String(expectation);
        }
      }
      expect(outcomes).toEqual(wanted);
    });
  }

  it('leaves the matrix package as it was: every change the guards let through was refused', async () => {
    const plan = await testApp.http
      .get(`/api/payment-plans/${context.planId}`)
      .set('Authorization', `Bearer ${tokens.admin}`);
    expect([plan.status, plan.body.status, plan.body.price]).toEqual([200, 'ACTIVE', 9.99]);
  });

  it('leaves the shared users as they were: every call the guards let through was refused or harmless', async () => {
    for (const actor of ['client', 'otherClient', 'ambassador'] as const) {
      const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${tokens[actor]}`);
      expect(me.status).toBe(200);
      expect({ actor, trialRejected: me.body.trialRejected, status: me.body.status }).toEqual({
        actor,
        trialRejected: false,
        status: 'ACTIVE',
      });
    }
  });
});
