import { openEmbeddedDatabase } from '@kupa/api/testing';

/**
 * The embedded PostgreSQL of a data directory as a process of its own (`node --import tsx
 * embedded-database-process.ts <dataDir>`): the crash test runs the database apart from the API and the worker, so
 * that it can kill it and start it again under them. Prints `ready` once it accepts connections; SIGTERM stops it.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-database-process.ts <dataDir>');
const database = await openEmbeddedDatabase({ dataDir });
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void database.stop().then(() => process.exit(0));
});
setInterval(() => undefined, 60_000);
