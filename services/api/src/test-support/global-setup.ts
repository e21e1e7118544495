import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIRECTORY_VARIABLE } from './openapi-cache';
import { startTestServer } from './postgres-server';

export default async function globalSetup(): Promise<void> {
  const server = await startTestServer();
  process.env.KUPA_TEST_ADMIN_URL = server.adminUrl;
  // What the spec files of this run share besides the server (the OpenAPI document per route set), removed at the end.
  process.env[RUN_DIRECTORY_VARIABLE] = mkdtempSync(join(tmpdir(), 'kupa-test-run-'));
  (globalThis as { __kupaTestServer?: unknown }).__kupaTestServer = server;
}
