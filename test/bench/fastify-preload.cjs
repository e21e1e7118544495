'use strict';
/*
 * A bench-only experiment, never shipped (docs/benchmarks.md, "The HTTP floor"; ADR 0134): loaded into the built
 * server's processes with NODE_OPTIONS=--require by `http-floor.ts`, it replaces `createApp` of services/api/dist
 * with one that boots the same AppModule on @nestjs/platform-fastify (installed in the test workspace only).
 *
 * It keeps, per request, the work the Express stack does on the two measured routes (a transfer and a signed-in
 * read), so that the difference measured is the framework's: the request id (header or new uuid) echoed and run as
 * the log context, `Cache-Control: no-store` under /api, helmet's headers (the same helmet, on the raw response, as
 * @fastify/helmet does), the cookies parsed, a body limit of 100 kB, the JSON depth guard and the inexact amounts'
 * restoration, the per-route duration histogram, and a child logger per request (Fastify's own request logging with
 * our pino instance; at LOG_LEVEL=error neither side writes a line). Express's request/response methods the
 * controllers, guards and filter call (`res.cookie`, `res.setHeader`, `res.status().json()`) are shimmed on the
 * reply: a migration would rewrite them instead (ADR 0134 lists where). Not kept: static UI files, the OpenAPI page,
 * form posts, the content-type and bodiless-route middleware's exact error codes (Fastify answers its own 415).
 */
const { join } = require('node:path');

const root = process.env.KUPA_BENCH_FASTIFY_ROOT ?? join(__dirname, '..', '..');
const dist = join(root, 'services', 'api', 'dist');
const fromDist = (name) => require(require.resolve(name, { paths: [dist] }));

fromDist('reflect-metadata');
const createAppExports = require(join(dist, 'create-app.js'));
const { AppModule } = require(join(dist, 'app.module.js'));
const { ApiErrorFilter, createValidationPipe } = require(join(dist, 'platform', 'http', 'index.js'));
const { ApiError } = require(join(dist, 'platform', 'http', 'api-error.js'));
const { JSON_DEPTH_MAX, jsonDepthExceeds } = require(join(dist, 'platform', 'http', 'input-guards.js'));
const { restoreInexactAmounts } = require(join(dist, 'platform', 'http', 'exact-amounts.js'));
const { Metrics } = require(join(dist, 'platform', 'observability', 'index.js'));
const { REQUEST_ID_HEADER, requestIdFrom } = require(join(dist, 'platform', 'observability', 'request-id.js'));
const { withLogContext } = require(join(dist, 'platform', 'observability', 'log-context.js'));
const { NestFactory } = fromDist('@nestjs/core');
const helmet = fromDist('helmet').default;
const cookie = require(require.resolve('cookie', { paths: [require.resolve('cookie-parser', { paths: [dist] })] }));
const { FastifyAdapter } = require('@nestjs/platform-fastify');

const API_PREFIX = 'api';
const isApiPath = (url) => url.startsWith(`/${API_PREFIX}/`) || url === `/${API_PREFIX}`;

/** The same policy as create-app.ts's securityHeaders (copied: it is not exported). */
function securityHeaders(config) {
  const https = config.publicUrl.startsWith('https://');
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https,
  });
}

createAppExports.createApp = async function createFastifyApp(options) {
  const logger = options.logger ?? createAppExports.createLogger(options);
  const { trustProxy } = options.config;
  const adapter = new FastifyAdapter({
    bodyLimit: 100 * 1024,
    trustProxy: Array.isArray(trustProxy) ? [...trustProxy] : trustProxy,
    loggerInstance: logger.pino,
    genReqId: (request) => requestIdFrom(request.headers[REQUEST_ID_HEADER.toLowerCase()]),
  });
  const app = await NestFactory.create(AppModule.register(options), adapter, { rawBody: true, logger });
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(Metrics);
  const headers = securityHeaders(options.config);

  // Express's response methods, as the code calls them today.
  fastify.decorateReply('setHeader', function setHeader(name, value) {
    this.header(name, value);
  });
  fastify.decorateReply('json', function json(body) {
    this.send(body);
  });
  fastify.decorateReply('cookie', function setCookie(name, value, cookieOptions = {}) {
    const { maxAge, ...rest } = cookieOptions;
    const serialised = cookie.serialize(name, String(value), {
      ...rest,
      ...(maxAge !== undefined ? { maxAge: Math.floor(maxAge / 1000), expires: new Date(Date.now() + maxAge) } : {}),
    });
    const previous = this.getHeader('set-cookie');
    this.header('set-cookie', previous === undefined ? serialised : [].concat(previous, serialised));
  });
  fastify.decorateReply('clearCookie', function clearCookie(name, cookieOptions = {}) {
    this.cookie(name, '', { ...cookieOptions, expires: new Date(1) });
  });

  fastify.addHook('onRequest', (request, reply, done) => {
    request.raw.id = request.id;
    reply.header(REQUEST_ID_HEADER, request.id);
    if (isApiPath(request.url)) reply.header('Cache-Control', 'no-store');
    request.cookies = request.headers.cookie ? cookie.parse(request.headers.cookie) : {};
    headers(request.raw, reply.raw, (error) => {
      if (error) done(error);
      else withLogContext({ requestId: request.id, request: request.raw }, () => done());
    });
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (jsonDepthExceeds(request.body, JSON_DEPTH_MAX)) {
      done(new ApiError('error.bad.request'));
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    const shim = {
      rawBody: request.rawBody,
      body: request.body,
      is: (type) => contentType.startsWith(type),
    };
    restoreInexactAmounts(shim, undefined, () => done());
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiErrorFilter(metrics));
  // Fastify's listen(port) binds to localhost only; Express's to every address.
  const listen = app.listen.bind(app);
  app.listen = (port) => listen(port, '0.0.0.0');
  return app;
};
