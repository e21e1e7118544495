import { type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule, type AppModuleOptions } from './app.module';
import { REFRESH_COOKIE_SCHEMES } from './contexts/identity';
import { type AppConfig, warnOfSandboxes } from './platform/config';
import {
  ApiErrorFilter,
  createValidationPipe,
  staticUi,
  tightenOpenApiDocument,
  useJsonBodyParser,
} from './platform/http';
import { SANDBOX_CARD_PATH } from './platform/card-provider';
import { IPN_SECURITY_SCHEME, IPN_SIGNATURE_HEADER, SANDBOX_INVOICE_PAGE_PATH } from './platform/cashier';
import { chooseLogFormat, colourWanted, JsonLogger, Metrics, useHttpObservability } from './platform/observability';

export const API_PREFIX = 'api';

/**
 * Security headers on every answer: the API's JSON, both UIs, the OpenAPI page and errors alike. The policy is what
 * the built UIs need and no more: scripts and connections only to this origin; inline styles, because Emotion (MUI)
 * writes its rules into <style> tags at run time, as does the OpenAPI page; images from this origin and data: URIs
 * (MUI and the OpenAPI page draw some as SVG data). No page of ours may be framed. Upgrading requests to https and
 * Strict-Transport-Security apply only when the public address is https, so a plain-http install keeps working.
 */
function securityHeaders(config: AppConfig) {
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

function isApiPath(url: string): boolean {
  return url.startsWith(`/${API_PREFIX}/`) || url === `/${API_PREFIX}`;
}

/**
 * Every API answer is `Cache-Control: no-store`: sign-in tokens, the two-factor enrolment secret, payment searches
 * and profiles must not be kept by a browser or a proxy, and an error or a refused body no more than a success, so
 * it is set before anything else can answer (docs/adr/0059-edges-refuse-what-they-cannot-read.md). A route may still
 * set its own. The UIs' files, served beside the API, keep their caching (ADR 0038).
 */
function noStoreForApi(request: Request, response: Response, next: NextFunction): void {
  if (isApiPath(request.originalUrl)) response.setHeader('Cache-Control', 'no-store');
  next();
}

/**
 * Serves a built single-page app under `mount` (see `staticUi`). Paths under /api are never touched, nor, for the
 * client portal at the root, the staff console's.
 */
function serveSpa(app: NestExpressApplication, mount: string, directory: string | null): void {
  if (!directory || !existsSync(join(directory, 'index.html'))) return;
  const belongsElsewhere = (request: Request): boolean => {
    const url = request.originalUrl;
    if (isApiPath(url)) return true;
    return mount === '/' && (url.startsWith('/admin/') || url === '/admin');
  };
  app.use(mount, staticUi(directory, belongsElsewhere));
}

export interface CreateAppOptions extends AppModuleOptions {
  logger?: JsonLogger;
  /**
   * Where the served OpenAPI document comes from; `build` makes it from the app's routes, which is the default. The
   * API specs keep one per route set for the whole Jest run (`test-support/openapi-cache.ts`): building it took about
   * a third of a second of CPU at each spec file's start.
   */
  openApiDocument?: (build: () => OpenAPIObject, app: NestExpressApplication) => OpenAPIObject;
}

/** The document served at /api/docs/openapi.json: every route of `app`, as its controllers and DTOs describe it. */
export function buildOpenApiDocument(app: NestExpressApplication, version: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Kupa API')
    .setDescription('Conventions, errors, paging and idempotency: docs/api.md')
    .setVersion(version)
    .addBearerAuth()
    .addApiKey(
      { type: 'apiKey', in: 'header', name: IPN_SIGNATURE_HEADER, description: 'The cashier signs its notifications' },
      IPN_SECURITY_SCHEME,
    );
  for (const { name, scheme } of REFRESH_COOKIE_SCHEMES) builder.addCookieAuth(name, scheme, name);
  return tightenOpenApiDocument(SwaggerModule.createDocument(app, builder.build()));
}

export function configureApp(app: NestExpressApplication, options: CreateAppOptions, logger: JsonLogger): void {
  warnOfSandboxes(options.config, logger);
  // First of all, so that every answer (a refused body, a UI file, a 404) carries the request id and is logged.
  useHttpObservability(app, logger, app.get(Metrics));
  // `req.ip` (rate limits, the activity log's address) reads X-Forwarded-For only from the proxies TRUST_PROXY names.
  const { trustProxy } = options.config;
  app.set('trust proxy', Array.isArray(trustProxy) ? [...trustProxy] : trustProxy);
  app.disable('x-powered-by');
  app.use(noStoreForApi);
  app.use(securityHeaders(options.config));
  // The sandbox invoice and checkout pages' buttons are plain HTML forms (no scripts run on them), and the Stripe
  // SDK posts forms to the sandbox card's API, which reads them itself. A mail client's one-click unsubscribe
  // (RFC 8058) posts the form `List-Unsubscribe=One-Click`, which the route does not read (ADR 0091).
  useJsonBodyParser(app, [`${SANDBOX_INVOICE_PAGE_PATH}/`, `${SANDBOX_CARD_PATH}/`, '/api/announcements/unsubscribe']);
  app.use(cookieParser());
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiErrorFilter(app.get(Metrics)));
  const build = () => buildOpenApiDocument(app, options.version);
  const document = options.openApiDocument ? options.openApiDocument(build, app) : build();
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, { jsonDocumentUrl: `${API_PREFIX}/docs/openapi.json` });
  if (options.serveUi) {
    serveSpa(app, '/admin', options.config.adminUiDir);
    serveSpa(app, '/', options.config.clientUiDir);
  }
}

/**
 * The server's logger at `LOG_LEVEL` on standard output (docs/adr/0031-health-metrics-logs.md): JSON lines, or
 * readable ones when `LOG_FORMAT` asks for them or leaves it to a terminal (docs/adr/0074-readable-first-run.md).
 */
export function createLogger(options: Pick<AppModuleOptions, 'config' | 'quiet'>): JsonLogger {
  const terminal = process.stdout.isTTY === true;
  return JsonLogger.create({
    level: options.quiet ? 'silent' : options.config.logLevel,
    format: chooseLogFormat(options.config.logFormat, terminal),
    colour: colourWanted(terminal),
  });
}

export async function createApp(options: CreateAppOptions): Promise<INestApplication & NestExpressApplication> {
  const logger = options.logger ?? createLogger(options);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), {
    rawBody: true,
    bodyParser: false,
    logger,
  });
  configureApp(app, options, logger);
  return app;
}
