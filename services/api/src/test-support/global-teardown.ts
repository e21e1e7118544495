import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { serverTroubleLines, type TestServer } from './postgres-server';
import { RUN_DIRECTORY_VARIABLE } from './openapi-cache';
import type { TestDatabase } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const directory = process.env[RUN_DIRECTORY_VARIABLE];
  if (directory) rmSync(directory, { recursive: true, force: true });
  await (globalThis as { __kupaTestTemplate?: TestDatabase }).__kupaTestTemplate?.drop();
  const server = (globalThis as { __kupaTestServer?: TestServer }).__kupaTestServer;
  if (!server) return;
  // Said at the end of every run that had any: a spec that failed on a cut connection or a refused start is
  // otherwise only a timeout in a log.
  const trouble = serverTroubleLines(server.logPath);
  if (trouble.length > 0) {
    process.stderr.write(`\nThe test PostgreSQL server reported trouble during this run:\n${trouble.join('\n')}\n`);
  }
  if (server.handle) await server.handle.stop();
  // The server's own directory goes with its data (the library removes only the cluster below it).
  if (server.logPath) rmSync(dirname(server.logPath), { recursive: true, force: true });
}
