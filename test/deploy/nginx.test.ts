import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEPLOY_DIR } from './paths.ts';

/**
 * deploy/nginx.conf, run by a real nginx (Debian's `nginx-light`; CI installs it): `nginx -t` accepts it, and a
 * copy pointed at a local stand-in for the API and at sample UI folders serves what production relies on.
 */
const NGINX = (process.env.NGINX_PATH ? [process.env.NGINX_PATH] : ['/usr/sbin/nginx', '/usr/bin/nginx']).find((path) =>
  existsSync(path),
);

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const call = request({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolveAnswer({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('latin1'),
        }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

describe('deploy/nginx.conf', () => {
  let workDir: string;
  let nginx: ChildProcess;
  let api: Server;
  let port: number;
  const config = readFileSync(join(DEPLOY_DIR, 'nginx.conf'), 'utf8');

  before(async () => {
    // `npm test` and `npm run test:deploy` check this first (scripts/test-prerequisites.mjs); a direct run lands here.
    assert.ok(NGINX, "Debian's nginx-light is not installed: run `apt-get install -y nginx-light`");
    workDir = mkdtempSync(join(tmpdir(), 'kupa-nginx-'));
    // nginx's workers run as an unprivileged user when it starts as root: they must be able to read the files.
    chmodSync(workDir, 0o755);
    // The UIs as Vite builds them: index.html and content-hashed files under assets/.
    const bigScript = `console.log(${JSON.stringify('kupa '.repeat(2000))});\n`;
    for (const [app, marker] of [
      ['client', 'client portal'],
      ['admin', 'staff console'],
    ]) {
      mkdirSync(join(workDir, 'share', app, 'assets'), { recursive: true });
      writeFileSync(join(workDir, 'share', app, 'index.html'), `<!doctype html><title>${marker}</title>`);
      writeFileSync(join(workDir, 'share', app, 'assets', 'index-3f2a9c1b.js'), bigScript);
      // The build's gzip twin of the hashed file (scripts/precompress.mjs), and a large file without one.
      writeFileSync(join(workDir, 'share', app, 'assets', 'index-3f2a9c1b.js.gz'), gzipSync(bigScript, { level: 9 }));
      writeFileSync(join(workDir, 'share', app, 'assets', 'plain-7d1e0f2a.css'), `a{color:red}\n`.repeat(200));
      writeFileSync(join(workDir, 'share', app, 'robots.txt'), `User-agent: *\nDisallow: /${app}\n`);
    }
    // The API's stand-in answers with the headers it was sent.
    // `?cache=` makes it answer with that Cache-Control instead of the API's no-store, as a mistaken route would.
    api = createServer((incoming, response) => {
      response.setHeader('Content-Type', 'application/json');
      const cache = new URL(incoming.url ?? '/', 'http://api').searchParams.get('cache');
      response.setHeader('Cache-Control', cache ?? 'no-store');
      response.end(JSON.stringify({ url: incoming.url, headers: incoming.headers }));
    });
    await new Promise<void>((ready) => api.listen(0, '127.0.0.1', ready));
    port = await freePort();
    const temp = join(workDir, 'temp');
    mkdirSync(temp);
    const copy = config
      .replace('server api:3000;', `server 127.0.0.1:${(api.address() as AddressInfo).port};`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replaceAll('/usr/share/kupa/', `${join(workDir, 'share')}/`)
      .replace(
        /^http \{$/m,
        `http {\n  access_log ${temp}/access.log;\n` +
          ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
            .map((kind) => `  ${kind}_temp_path ${temp}/${kind};`)
            .join('\n'),
      );
    assert.notEqual(copy, config);
    writeFileSync(join(workDir, 'nginx.conf'), copy);
    const globals = `pid ${workDir}/nginx.pid; error_log ${workDir}/error.log;`;
    const checked = spawnSync(NGINX, ['-t', '-p', workDir, '-c', join(workDir, 'nginx.conf'), '-g', globals], {
      encoding: 'utf8',
    });
    assert.equal(checked.status, 0, `nginx -t refused the configuration:\n${checked.stderr}`);
    nginx = spawn(NGINX, ['-p', workDir, '-c', join(workDir, 'nginx.conf'), '-g', `${globals} daemon off;`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    for (let attempt = 0; ; attempt += 1) {
      try {
        await get(port, '/healthz');
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((wait) => setTimeout(wait, 50));
      }
    }
  });

  after(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx.once('exit', done));
      nginx.kill('SIGTERM');
      await exited;
    }
    // A `before` that failed early left no API stand-in; waiting on it would leave the suite pending for ever.
    if (api) await new Promise<void>((closed) => api.close(() => closed()));
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('passes /api to the API with the connecting address in X-Forwarded-For, never the client’s own', async () => {
    const answer = await get(port, '/api/health/ready?x=1', {
      'X-Forwarded-For': '203.0.113.66',
      Host: 'kupa.example.com',
    });
    assert.equal(answer.status, 200);
    const seen = JSON.parse(answer.body) as { url: string; headers: IncomingHttpHeaders };
    assert.equal(seen.url, '/api/health/ready?x=1');
    assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
    assert.equal(seen.headers['x-forwarded-proto'], 'http');
    assert.equal(seen.headers.host, 'kupa.example.com');
    // The API's answer keeps its own caching and gets none of the UI's headers added.
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['content-security-policy'], undefined);
    assert.equal(answer.headers['x-frame-options'], undefined);
  });

  it('keeps the metrics off the public edge', async () => {
    assert.equal((await get(port, '/api/metrics')).status, 404);
  });

  it('answers no-store on /api whatever the upstream said, its own answers there included', async () => {
    const cacheable = await get(port, '/api/users/me?cache=public%2C%20max-age%3D600');
    assert.equal(cacheable.status, 200);
    assert.equal(cacheable.headers['cache-control'], 'no-store');
    assert.equal(cacheable.headers.expires, undefined);
    const metrics = await get(port, '/api/metrics');
    assert.equal(metrics.headers['cache-control'], 'no-store');
  });

  it('caches hashed assets of both UIs for a year, sending the build’s gzip twin or compressing', async () => {
    for (const app of ['', '/admin']) {
      const path = `${app}/assets/index-3f2a9c1b.js`;
      const answer = await get(port, path, { 'Accept-Encoding': 'gzip' });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers['cache-control'], 'public, max-age=31536000, immutable', path);
      assert.equal(answer.headers['content-encoding'], 'gzip', path);
      assert.equal(answer.headers.vary, 'Accept-Encoding', path);
      assert.match(String(answer.headers['content-type']), /javascript/);
      // The twin itself, byte for byte (level 9, which on-the-fly compression at level 5 would not give).
      const twin = readFileSync(
        join(workDir, 'share', app === '' ? 'client' : 'admin', 'assets', 'index-3f2a9c1b.js.gz'),
      );
      assert.equal(answer.body, twin.toString('latin1'), path);
      const plain = await get(port, `${app}/assets/index-3f2a9c1b.js`);
      assert.equal(plain.headers['content-encoding'], undefined, path);
      assert.equal(gunzipSync(Buffer.from(answer.body, 'latin1')).toString(), plain.body);
      const css = await get(port, `${app}/assets/plain-7d1e0f2a.css`, { 'Accept-Encoding': 'gzip' });
      assert.equal(css.headers['content-encoding'], 'gzip', `${app} css`);
      assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    for (const missing of ['/assets/index-00000000.js', '/admin/assets/index-00000000.js'])
      assert.equal((await get(port, missing)).status, 404, missing);
  });

  it('answers a file the build does not have with 404 and serves those it has, for both UIs', async () => {
    for (const missing of ['/favicon.ico', '/admin/favicon.ico', '/payments/sitemap.xml']) {
      const answer = await get(port, missing);
      assert.equal(answer.status, 404, missing);
      assert.doesNotMatch(answer.body, /client portal|staff console/, missing);
    }
    for (const [path, app] of [
      ['/robots.txt', 'client'],
      ['/admin/robots.txt', 'admin'],
    ]) {
      const answer = await get(port, path);
      assert.equal(answer.status, 200, path);
      assert.match(answer.body, new RegExp(`Disallow: /${app}`), path);
    }
    const exported = await get(port, '/api/payments/export.csv');
    assert.equal(exported.status, 200);
    assert.match(exported.body, /"url":"\/api\/payments\/export.csv"/);
  });

  it('serves each UI’s index.html for its client-side routes, checked on every visit, with the security headers', async () => {
    for (const [path, marker] of [
      ['/', 'client portal'],
      ['/subscriptions/42', 'client portal'],
      ['/admin/', 'staff console'],
      ['/admin/users/7/show', 'staff console'],
    ]) {
      const answer = await get(port, path);
      assert.equal(answer.status, 200, path);
      assert.match(answer.body, new RegExp(marker), path);
      assert.equal(answer.headers['cache-control'], 'no-cache', path);
      assert.match(String(answer.headers['content-security-policy']), /frame-ancestors 'none'/, path);
      assert.equal(answer.headers['x-frame-options'], 'DENY', path);
      assert.equal(answer.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(answer.headers['referrer-policy'], 'no-referrer', path);
    }
    const bare = await get(port, '/admin');
    assert.equal(bare.status, 301);
    assert.match(String(bare.headers.location), /\/admin\/$/);
  });
});
