import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';

/**
 * Bodies the JSON parser cannot or does not read (docs/adr/0059-edges-refuse-what-they-cannot-read.md): a false or
 * unknown `Content-Encoding`, and a `Content-Type` other than JSON, each sent the way the probe sent it. The requests
 * are outside the OpenAPI document on purpose, so they go through the unchecked client.
 */
describe('bodies in a format the API does not read', () => {
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('Content-Encoding', () => {
    /** A sign-in whose plain JSON body claims `encoding`, and what it was answered. */
    const signInEncoded = async (encoding: string) => {
      const response = await testApp.rawHttp
        .post('/api/auth/signin')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('{"email":"dana@example.com","password":"Secret#123"}');
      return { encoding, status: response.status, error: response.body.error };
    };

    it('answers 400 error.bad.request to a body announced as gzip that is not', async () => {
      for (const encoding of ['gzip', 'deflate', 'br'])
        expect(await signInEncoded(encoding)).toEqual({ encoding, status: 400, error: 'error.bad.request' });
    });

    it('answers 415 error.unsupported.content.encoding to an encoding the server does not read', async () => {
      for (const encoding of ['compress', 'x-unknown', 'gzip, gzip']) {
        expect(await signInEncoded(encoding)).toEqual({
          encoding,
          status: 415,
          error: 'error.unsupported.content.encoding',
        });
      }
    });

    it('still reads a body that is gzipped as announced', async () => {
      const user = await createActiveUser(testApp);
      // fetch, since supertest re-serialises a Buffer sent with a JSON content type.
      const server: http.Server = testApp.app.getHttpServer();
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ email: user.email, password: user.password })),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { userUuid: string }).userUuid).toBe(user.userUuid);
    });
  });

  describe('Content-Type', () => {
    const exportAs = (contentType: string, body: string) =>
      testApp.rawHttp
        .post('/api/payments/export')
        .set('Authorization', `Bearer ${admin}`)
        .set('Content-Type', contentType)
        .send(body);

    it('refuses an export whose filters come as text/plain, instead of exporting every payment', async () => {
      const filters = JSON.stringify({ keyWord: 'nobody-at-all@example.com' });
      const plain = await exportAs('text/plain', filters);
      expect(plain.status).toBe(415);
      expect(plain.headers['content-type']).toMatch(/application\/json/);
      expect(plain.body.error).toBe('error.unsupported.media.type');
      // The same filters as JSON are read: a header row and no payment.
      const json = await exportAs('application/json', filters);
      expect(json.status).toBe(200);
      expect(json.text.trim().split('\r\n')).toHaveLength(1);
    });

    it('refuses a form, a missing type and a charset the parser does not read, on a JSON route', async () => {
      const form = await exportAs('application/x-www-form-urlencoded', 'keyWord=nobody');
      const unlabelled = await testApp.rawHttp
        .post('/api/auth/signin')
        .set('Content-Type', '')
        .send(Buffer.from('{"email":"dana@example.com","password":"Secret#123"}'));
      const latin1 = await exportAs('application/json; charset=latin1', '{}');
      for (const response of [form, unlabelled, latin1]) {
        expect({ status: response.status, error: response.body.error }).toEqual({
          status: 415,
          error: 'error.unsupported.media.type',
        });
      }
    });

    it('does not refuse a request without body bytes, whatever it declares', async () => {
      const bodiless = await testApp.rawHttp.post('/api/auth/logout');
      expect(bodiless.status).toBe(204);
      const empty = await testApp.rawHttp.post('/api/auth/logout').set('Content-Type', 'text/plain').send('');
      expect(empty.status).toBe(204);
    });

    it("takes a browser form's post only on the sandbox invoice page's buttons", async () => {
      const form = await testApp.rawHttp
        .post('/api/sandbox/cashier/invoices/123456789/pay?lang=en')
        .set('Accept', 'text/html')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('');
      // Past the content-type guard: the sandbox itself answers that there is no such invoice.
      expect(form.status).toBe(404);
      expect(form.body.error).toBe('error.cashier.invoice.not.found');
      const filled = await testApp.rawHttp
        .post('/api/sandbox/cashier/invoices/123456789/pay?lang=en')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('x=1');
      expect(filled.status).toBe(404);
      const plain = await testApp.rawHttp
        .post('/api/sandbox/cashier/invoices/123456789/pay')
        .set('Content-Type', 'text/plain')
        .send('x=1');
      expect(plain.status).toBe(415);
    });
  });
});
