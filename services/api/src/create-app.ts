import { type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule, type AppModuleOptions } from './app.module';
import { REFRESH_COOKIE_SCHEMES } from './contexts/identity';
import type { AppConfig } from './platform/config';
import { ApiErrorFilter, createValidationPipe, useJsonBodyParser } from './platform/http';
import { IPN_SECURITY_SCHEME, IPN_SIGNATURE_HEADER } from './platform/cashier';

export const API_PREFIX = 'api';

export const LOG_LEVELS: Record<string, LogLevel[]> = {
  error: ['error'],
  warn: ['error', 'warn'],
  log: ['error', 'warn', 'log'],
  debug: ['error', 'warn', 'log', 'debug'],
  verbose: ['error', 'warn', 'log', 'debug', 'verbose'],
};

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

/**
 * Serves a built single-page app under `mount`, answering unknown paths with its index.html so that client-side
 * routes survive a reload. Paths under /api are never touched.
 */
function serveSpa(app: NestExpressApplication, mount: string, directory: string | null): void {
  if (!directory || !existsSync(join(directory, 'index.html'))) return;
  const index = join(directory, 'index.html');
  const assets = express.static(directory, { index: false, maxAge: '1h' });
  app.use(mount, (request: Request, response: Response, next: NextFunction) => {
    if (request.originalUrl.startsWith(`/${API_PREFIX}/`) || request.originalUrl === `/${API_PREFIX}`) return next();
    if (mount === '/' && (request.originalUrl.startsWith('/admin/') || request.originalUrl === '/admin')) return next();
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    assets(request, response, () => {
      response.setHeader('Cache-Control', 'no-cache');
      response.sendFile(index);
    });
  });
}

export function configureApp(app: NestExpressApplication, options: AppModuleOptions): void {
  app.set('trust proxy', 'loopback');
  app.disable('x-powered-by');
  app.use(securityHeaders(options.config));
  useJsonBodyParser(app);
  app.use(cookieParser());
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiErrorFilter());
  const builder = new DocumentBuilder()
    .setTitle('Kupa API')
    .setDescription('Conventions, errors, paging and idempotency: docs/api.md')
    .setVersion(options.version)
    .addBearerAuth()
    .addApiKey(
      { type: 'apiKey', in: 'header', name: IPN_SIGNATURE_HEADER, description: 'The cashier signs its notifications' },
      IPN_SECURITY_SCHEME,
    );
  for (const { name, scheme } of REFRESH_COOKIE_SCHEMES) builder.addCookieAuth(name, scheme, name);
  const document = SwaggerModule.createDocument(app, builder.build());
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, document, { jsonDocumentUrl: `${API_PREFIX}/docs/openapi.json` });
  if (options.serveUi) {
    serveSpa(app, '/admin', options.config.adminUiDir);
    serveSpa(app, '/', options.config.clientUiDir);
  }
}

export async function createApp(options: AppModuleOptions): Promise<INestApplication & NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), {
    rawBody: true,
    bodyParser: false,
    logger: options.quiet ? false : LOG_LEVELS[options.config.logLevel],
  });
  configureApp(app, options);
  return app;
}
