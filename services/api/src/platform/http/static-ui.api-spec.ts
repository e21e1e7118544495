import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../../test-support/test-app';

/**
 * The built UIs as the server sends them: hashed assets cached for a year, pre-compressed twins to browsers that
 * accept them, index.html for client routes, always revalidated.
 */
describe('serving the built UIs', () => {
  let testApp: TestApp;
  let uiRoot: string;

  // Each twin holds different text from its original, so an answer shows which file was sent.
  const SCRIPT = 'console.log("identity");';
  const SCRIPT_BROTLI = 'console.log("brotli");';
  const SCRIPT_GZIP = 'console.log("gzip");';

  beforeAll(async () => {
    uiRoot = mkdtempSync(join(tmpdir(), 'kupa-static-'));
    const ui = { adminUiDir: join(uiRoot, 'admin'), clientUiDir: join(uiRoot, 'client') };
    for (const [name, directory] of Object.entries({ admin: ui.adminUiDir, client: ui.clientUiDir })) {
      mkdirSync(join(directory, 'assets'), { recursive: true });
      writeFileSync(join(directory, 'index.html'), `<!doctype html><title>${name}</title>`);
      writeFileSync(join(directory, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
      writeFileSync(join(directory, 'assets', `${name}-abc123.js`), SCRIPT);
      writeFileSync(join(directory, 'assets', `${name}-abc123.js.br`), brotliCompressSync(SCRIPT_BROTLI));
      writeFileSync(join(directory, 'assets', `${name}-abc123.js.gz`), gzipSync(SCRIPT_GZIP));
      writeFileSync(join(directory, 'assets', `${name}-def456.css`), 'body{margin:0}');
    }
    testApp = await startTestApp({ ui });
  });

  afterAll(async () => {
    await testApp.close();
    rmSync(uiRoot, { recursive: true, force: true });
  });

  /** The answer's body as text, after the HTTP client undid its content encoding. */
  const get = (path: string, acceptEncoding: string): Promise<Response> =>
    testApp.rawHttp
      .get(path)
      .set('Accept-Encoding', acceptEncoding)
      .buffer(true)
      .parse((response, callback) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => callback(null, text));
      });

  it.each([
    ['the client portal', '/assets/client-abc123.js'],
    ['the staff console', '/admin/assets/admin-abc123.js'],
  ])('sends the Brotli twin of a hashed script of %s, cached for a year as immutable', async (_app, path) => {
    const response = await get(path, 'gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['vary']).toMatch(/Accept-Encoding/);
    expect(response.body).toBe(SCRIPT_BROTLI);
  });

  it('sends the gzip twin to a browser without Brotli, and the file itself to one that accepts neither', async () => {
    const gzip = await get('/assets/client-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body).toBe(SCRIPT_GZIP);

    const identity = await get('/assets/client-abc123.js', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers['vary']).toMatch(/Accept-Encoding/);
    expect(identity.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(identity.body).toBe(SCRIPT);
  });

  it('prefers what the browser ranks higher', async () => {
    const response = await get('/assets/client-abc123.js', 'br;q=0.5, gzip;q=1');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('caches a hashed file without twins for a year, a file with a stable name for an hour', async () => {
    const style = await get('/assets/client-def456.css', 'br');
    expect(style.headers['content-encoding']).toBeUndefined();
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await get('/robots.txt', 'br');
    expect(robots.headers['cache-control']).toBe('public, max-age=3600');
  });

  it.each([
    ['a client route reloaded', '/payments', 'client'],
    ['a staff console route reloaded', '/admin/clients', 'admin'],
  ])('answers %s with its index.html, revalidated each time', async (_case, path, app) => {
    const response = await get(path, 'br');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain(`<title>${app}</title>`);
  });

  it.each([
    ['a hashed asset', '/assets/gone-000000.js'],
    ['an icon the build does not have', '/favicon.ico'],
    ['a file below the staff console', '/admin/sitemap.xml'],
  ])('answers %s that is not there with 404, not with a page', async (_case, path) => {
    const response = await get(path, 'br');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).not.toMatch(/html/);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('still answers a route whose parameter is a token with the page', async () => {
    const response = await get('/set-password/Zm9vYmFy-_x', 'br');
    expect(response.status).toBe(200);
    expect(response.body).toContain('<title>client</title>');
  });
});
