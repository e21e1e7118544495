import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './create-app';
import { openDatabase } from './platform/database/embedded-database';
import { loadConfig } from './platform/config';
import { BackgroundWork } from './platform/workers';
import { readVersion } from './version';

/**
 * The one-process start: opens the database (embedded unless DATABASE_URL is set), runs migrations, serves /api,
 * /admin and /, and on SIGINT, SIGTERM or SIGHUP closes the server, then stops the embedded PostgreSQL, then exits 0.
 */
async function main(): Promise<void> {
  const logger = new Logger('Kupa');
  const config = loadConfig();
  // PostgreSQL's own log lines are only interesting when debugging.
  const showDatabaseLog = config.logLevel === 'debug' || config.logLevel === 'verbose';
  const database = await openDatabase(config, showDatabaseLog ? (line) => logger.debug(line) : undefined);
  if (database.embedded) logger.log(`Embedded PostgreSQL ready (data in ${config.dataDir})`);
  const app = await createApp({ config, databaseUrl: database.url, version: readVersion(), serveUi: true });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received, shutting down`);
    await app.close();
    await database.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown(signal));
  await app.listen(config.port);
  // Processors and the mail dispatcher run here too; any number of `npm run worker` processes may run beside.
  app.get(BackgroundWork).start();
  logger.log(
    `Kupa is up: ${config.publicUrl}/ (client), ${config.publicUrl}/admin (staff), ${config.publicUrl}/api/docs (API)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
