import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { LOG_LEVELS } from './create-app';
import { openDatabase } from './platform/database/embedded-database';
import { loadConfig } from './platform/config';
import { BackgroundWork } from './platform/workers';
import { readVersion } from './version';

/**
 * A worker: the processors and the mail dispatcher without HTTP (`npm run worker`). Any number may run beside the
 * servers, which run the same work: each processor leads in one process at a time under its advisory lock, and
 * dispatchers share the mail outbox row by row. On the embedded database it attaches to the server's PostgreSQL, or
 * starts it when none runs. SIGINT, SIGTERM or SIGHUP finish the batch in hand, then exit 0.
 */
async function main(): Promise<void> {
  const logger = new Logger('KupaWorker');
  const config = loadConfig();
  const database = await openDatabase(config);
  const context = await NestFactory.createApplicationContext(
    AppModule.register({ config, databaseUrl: database.url, version: readVersion() }),
    { logger: LOG_LEVELS[config.logLevel] },
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received, finishing the work in hand`);
    await context.close();
    await database.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown(signal));
  context.get(BackgroundWork).start();
  logger.log('Kupa worker is running the processors and the mail dispatcher');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
