import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../create-app';
import { ManualClock } from '../platform/clock';
import { type AppConfig, loadConfig } from '../platform/config';
import { Mailbox } from './mailbox';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication & NestExpressApplication;
  http: ReturnType<typeof request>;
  database: TestDatabase;
  dataSource: DataSource;
  mailbox: Mailbox;
  clock: ManualClock | null;
  config: AppConfig;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** A hand-moved clock; by default the system clock. */
  clock?: ManualClock;
  env?: Record<string, string>;
}

/**
 * The whole API on a fresh database and a real in-process SMTP server: what API specs drive with supertest.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const mailbox = await Mailbox.start();
  const config = loadConfig({
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    SMTP_URL: mailbox.url,
    PUBLIC_URL: 'http://kupa.test',
    DEMO_DATA: '0',
    LOG_LEVEL: 'error',
    KUPA_DATA_DIR: '/tmp/kupa-test-data-unused',
    ...options.env,
  });
  const app = await createApp({
    config,
    databaseUrl: database.url,
    version: '0.0.0-test',
    clock: options.clock,
    quiet: true,
  });
  await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    http: request(app.getHttpServer()),
    database,
    dataSource,
    mailbox,
    clock: options.clock ?? null,
    config,
    close: async () => {
      await app.close();
      await mailbox.stop();
      await database.drop();
    },
  };
}
