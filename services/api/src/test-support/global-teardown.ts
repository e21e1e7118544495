import type { DatabaseHandle } from '../platform/database/embedded-database';

export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as { __kupaTestServer?: DatabaseHandle | null }).__kupaTestServer;
  if (handle) await handle.stop();
}
