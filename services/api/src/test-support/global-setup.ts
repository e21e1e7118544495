import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIRECTORY_VARIABLE } from './openapi-cache';
import { startTestServer } from './postgres-server';
import { createMigratedTemplate } from './migrated-database';
import { MIGRATED_TEMPLATE_VARIABLE } from './test-database';

export default async function globalSetup(): Promise<void> {
  const server = await startTestServer();
  process.env.KUPA_TEST_ADMIN_URL = server.adminUrl;
  // What the spec files of this run share besides the server (the OpenAPI document per route set), removed at the end.
  process.env[RUN_DIRECTORY_VARIABLE] = mkdtempSync(join(tmpdir(), 'kupa-test-run-'));
  // Every spec app and migrated database of this run is a copy of this one (test-database.ts).
  const template = await createMigratedTemplate();
  process.env[MIGRATED_TEMPLATE_VARIABLE] = template.name;
  (globalThis as { __kupaTestServer?: unknown }).__kupaTestServer = server;
  (globalThis as { __kupaTestTemplate?: unknown }).__kupaTestTemplate = template;
}
