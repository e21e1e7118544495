import { startTestServer } from './postgres-server';

export default async function globalSetup(): Promise<void> {
  const { adminUrl, handle } = await startTestServer();
  process.env.KUPA_TEST_ADMIN_URL = adminUrl;
  (globalThis as { __kupaTestServer?: unknown }).__kupaTestServer = handle;
}
